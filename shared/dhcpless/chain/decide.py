"""Pure decisions: typed state in, a tuple of frozen actions out. No I/O, no clock.

* `decide_claims`: a paused host with a template -> one IPClaim per pool (or render at once
  when the template references no pool).
* `decide_render`: every claim fulfilled -> the Secret (written once, never overwritten:
  CAPM3 renders once per host, so a different existing Secret is reported, not replaced).
* `decide_release`: the Secret holds valid network data -> point the host at it and unpause.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import yaml

from dhcpless import keys, render
from dhcpless.chain import derived, external, formats, identity, messages, netcheck
from dhcpless.chain.actions import (
    Action,
    CreateIPAddressClaim,
    CreateIPClaim,
    RecordEvent,
    ReleaseHost,
    WriteSecret,
)
from dhcpless.chain.gate import Gate, gate, secret_name
from dhcpless.chain.lookup import Found, Problem
from dhcpless.chain.netcheck import problem as secret_problem
from dhcpless.chain.objects import secret_object
from dhcpless.keys import NetworkDataFormat
from dhcpless.kube.recorder import Reason
from dhcpless.kube.refs import HostRef
from dhcpless.models import BareMetalHost, IPAddress, IPClaim, IPPool, Secret
from dhcpless.render import macs

Actions = tuple[Action, ...]


def event(host: BareMetalHost, reason: Reason, message: str) -> RecordEvent:
    return RecordEvent(HostRef.of(host), reason, message)


def pools_for(host: BareMetalHost, found: Found) -> tuple[render.PoolRef, ...] | Problem:
    """The pools the template references for this host, or why it cannot be used. Pools of
    another kind than Metal3's IPPool are external (CAPI IPAM, `chain.external`)."""
    where = f"{found.ref.plural.kind} {found.ref.namespace}/{found.ref.name}"
    if found.template.network_data is None:
        return Problem(Reason.INVALID_TEMPLATE, f"{where} has no network data")
    try:
        pools = render.referenced_pools(found.template.network_data, host)
    except render.RenderError as err:
        return Problem(Reason.INVALID_TEMPLATE, f"{where}: {err}")
    return derived.checked(host.name, where, pools)


def decide_claims(host: BareMetalHost, found: Found, pools: tuple[render.PoolRef, ...]) -> Actions:
    """One claim per pool, `<host>-<pool>` in the template's (= pools') namespace: an IPClaim
    for a Metal3 IPPool, an IPAddressClaim for any other kind (`chain.external`)."""
    namespace = found.ref.namespace
    ref, mine = HostRef.of(host), [p for p in pools if p.is_metal3]
    every = tuple(p.name for p in pools) if len(mine) == len(pools) else ()
    template = str(found.ref) if every else ""
    claims: tuple[CreateIPClaim | CreateIPAddressClaim, ...] = (
        *(
            CreateIPClaim(namespace, f"{host.name}-{p.name}", p.name, ref, template, every)
            for p in mine
        ),
        *external.claim_actions(host, namespace, pools),
    )
    names = ", ".join(c.name for c in claims)
    return (
        event(host, Reason.TEMPLATE_CHOSEN, f"using {found.ref}"),
        *claims,
        event(host, Reason.CLAIMS_CREATED, f"IPClaims in {namespace}: {names}"),
    )


def decide_render(
    host: BareMetalHost,
    found: Found,
    claims: Mapping[str, IPClaim],
    addresses: Mapping[str, IPAddress],
    existing: Secret | None,
    ippools: Sequence[IPPool] = (),
    outside: external.External | None = None,
) -> Actions:
    """Render when every pool's claim has its address; report failed claims; else wait.

    `ippools` are what `netcheck.pools_to_check` listed, for the pool-overlap rule; `outside`
    the CAPI claims and addresses of external pools (`chain.external`)."""
    outside = outside or external.External()
    pools = pools_for(host, found)
    if isinstance(pools, Problem):
        return (event(host, pools.reason, pools.message),)
    failed = [
        claims[p.name] for p in pools if p.name in claims and claims[p.name].status.error_message
    ]
    refused = external.failures(host, pools, outside)
    if failed or refused:
        return (*(event(host, Reason.CLAIM_FAILED, _claim_error(c)) for c in failed), *refused)
    misnamed = _misnamed(host, claims, addresses)
    if misnamed:
        return misnamed
    have = {*addresses, *outside.addresses}
    if any(p.name not in have for p in pools):
        return ()
    cache = {name: render.Address.from_ipaddress(ip) for name, ip in addresses.items()}
    cache.update(outside.addresses)
    return _write(host, found, cache, existing, ippools)


def _misnamed(
    host: BareMetalHost, claims: Mapping[str, IPClaim], addresses: Mapping[str, IPAddress]
) -> Actions:
    """A claim's `status.address` must name an IPAddress IPAM made for that very claim
    (`ipam/ippool_manager.go` `createAddress` sets `spec.claim` to the claim): one naming
    another claim's address would give this host an address someone else holds."""
    events: list[Action] = []
    for pool, address in sorted(addresses.items()):
        claim = claims.get(pool)
        if claim is not None and address.spec.claim.name != claim.metadata.name:
            where = f"IPClaim {claim.metadata.namespace}/{claim.metadata.name}"
            message = (
                f"{where} names IPAddress {address.metadata.name} of claim "
                f"{address.spec.claim.name or '(none)'}; not used"
            )
            events.append(event(host, Reason.CLAIM_CONFLICT, message))
    return tuple(events)


def _write(
    host: BareMetalHost,
    found: Found,
    cache: Mapping[str, render.Address],
    existing: Secret | None,
    ippools: Sequence[IPPool] = (),
) -> Actions:
    try:
        document = render.render_network_data(found.template.network_data, host, cache)
    except render.RenderError as err:
        return (event(host, Reason.RENDER_FAILED, f"{found.ref}: {err}"),)
    if document is None:
        return (event(host, Reason.INVALID_TEMPLATE, f"{found.ref} has no network data"),)
    fmt = formats.template_format(found)
    if not isinstance(fmt, NetworkDataFormat):
        return (event(host, Reason.INVALID_TEMPLATE, f"{found.ref}: {fmt}"),)
    text, nmstate = formats.texts(fmt, document)
    if existing is not None:
        foreign = identity.refusal(HostRef.of(host), "Secret", existing.metadata)
        return (foreign,) if foreign is not None else _compare(host, existing, text)
    refused = netcheck.render_refusals(host, found, document, ippools)
    if refused:  # pre-unpause validation: no Secret for data the ramdisk cannot use
        return refused
    write = WriteSecret(
        host.namespace, secret_name(host), HostRef.of(host), text, data_format=fmt, nmstate=nmstate
    )
    return (
        write,
        event(host, Reason.NETWORK_DATA_RENDERED, _rendered(write.name, found, host)),
        *decide_release(host, secret_object(write)),  # the writer releases (act: if created)
    )


def _rendered(name: str, found: Found, host: BareMetalHost) -> str:
    """The Event text, saying which MAC a `fromHostInterface` fell back to and why."""
    data = found.template.network_data
    fallbacks = () if data is None else macs.boot_mac_fallbacks(data.links, host)
    return "; ".join((f"Secret {name} from {found.ref}", *fallbacks))


def _compare(host: BareMetalHost, existing: Secret, text: str) -> Actions:
    """Rendered once: an equal Secret is done, a different one is reported and left alone.

    Compared as data (JSON is YAML), in the format the template asks for (`chain.formats`)."""
    try:
        same = yaml.safe_load(existing.decoded(keys.NETWORK_DATA_KEY) or "") == yaml.safe_load(text)
    except (ValueError, yaml.YAMLError):
        same = False
    if same:  # rendered before: release with it (nothing, once released)
        return decide_release(host, existing)
    message = f"Secret {existing.metadata.name} exists with different network data; not replaced"
    return (event(host, Reason.SECRET_CONFLICT, message),)


def _claim_error(claim: IPClaim) -> str:
    return f"IPClaim {claim.metadata.namespace}/{claim.metadata.name}: {claim.status.error_message}"


def decide_release(host: BareMetalHost, secret: Secret | None) -> Actions:
    """Unpause once the Secret the host uses (or will use) holds valid network data."""
    state = gate(host)
    if not state.ours:
        return ()
    named = state is Gate.NAMED
    name = host.spec.preprovisioning_network_data_name if named else secret_name(host)
    if secret is not None and secret.metadata.name != name:
        return ()  # a Secret this host does not use
    if secret is None:  # a host-named Secret: one wording whatever the cause (`messages`)
        return messages.named_unusable(host, name) if named else ()
    refused_secret = (
        None if named else identity.refusal(HostRef.of(host), "Secret", secret.metadata)
    )
    if refused_secret is not None:  # our default name, not written by us for this host
        return (refused_secret,)
    trouble = secret_problem(secret)
    if trouble is not None:
        return (
            messages.named_unusable(host, name)
            if named
            else (event(host, Reason.SECRET_INVALID, trouble),)
        )
    refused = netcheck.release_refusals(host, secret)
    if refused:  # valid shape, but the ramdisk could not use it: stay paused, say why
        return messages.named_unusable(host, name) if named else refused
    version = host.metadata.resource_version or ""
    release = ReleaseHost(HostRef.of(host), name, not named, version)
    return (release, event(host, Reason.HOST_RELEASED, f"network data in Secret {name}"))
