"""Render and write a waiting host's Secret once every claim has its address.

An existing Secret is verified against the render (`decide.verify`): an equal one (ours)
releases the host; one of ours with different data is rendered again (the host, still paused,
has not used it); anyone else's is reported, never replaced. Failed claims
and claims naming another claim's address are reported instead (the host stays paused).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from dhcpless import keys, render
from dhcpless.chain import identity
from dhcpless.chain.actions import Action, WriteSecret
from dhcpless.chain.decide import external, formats, netcheck, profiles, verify
from dhcpless.chain.decide.release import decide_release, event
from dhcpless.chain.facts import Found, HostFacts
from dhcpless.chain.gate import secret_name
from dhcpless.chain.objects import secret_object
from dhcpless.chain.predicates import ownership
from dhcpless.models import BareMetalHost, IPAddress, IPClaim, IPPool, Secret
from dhcpless.reasons import Reason
from dhcpless.refs import HostRef
from dhcpless.render import PoolRef, macs

Actions = tuple[Action, ...]


def decide_render(facts: HostFacts, found: Found, pools: tuple[PoolRef, ...]) -> Actions:
    """Report failed claims; render when every pool has its address; else wait."""
    host, claims, outside = facts.host, facts.claims, facts.outside
    failed = [c for p in pools if (c := claims.get(p.name)) and c.status.error_message]
    refused = external.failures(host, pools, outside)
    if failed or refused:
        return (*(event(host, Reason.CLAIM_FAILED, _claim_error(c)) for c in failed), *refused)
    misnamed = _misnamed(host, claims, facts.addresses)
    if misnamed:
        return misnamed
    have = {*facts.addresses, *outside.addresses}
    if any(p.name not in have for p in pools):
        return ()
    cache = {name: render.Address.from_ipaddress(ip) for name, ip in facts.addresses.items()}
    cache.update(outside.addresses)
    metal3 = tuple(p.name for p in pools if p.is_metal3)
    records = {
        keys.CLAIMED_POOLS_ANNOTATION: ownership.record_text(found.ref.namespace, metal3),
        keys.CLAIMED_ADDRESSES_ANNOTATION: ownership.addresses_text(
            {pool: cache[pool].address for pool in metal3}
        ),
    }
    profile = profiles.template_profile(found, facts.ramdisk_profile)
    if not isinstance(profile, keys.RamdiskProfile):
        return (event(host, Reason.INVALID_TEMPLATE, f"{found.ref}: {profile}"),)
    return _write(host, found, cache, facts.secret, (pools, facts.ippools), records, profile)


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
    pools: tuple[Sequence[PoolRef], Sequence[IPPool]] = ((), ()),
    records: Mapping[str, str] | None = None,
    profile: keys.RamdiskProfile = keys.DEFAULT_PROFILE,
) -> Actions:
    """`pools`: the pools the template references (as gathered: not derived again) and the
    namespace's IPPools, for the pool rule. `records`: what the Secret records of the claims
    the data came from (`keys.CLAIMED_POOLS_ANNOTATION`, copied onto the host by the release
    as a hint for resync; `keys.CLAIMED_ADDRESSES_ANNOTATION`, what a re-claim asks back).
    `profile`: the ramdisk the data is judged for, recorded on the Secret too."""
    records = records or {}
    try:
        document = render.render_network_data(found.template.network_data, host, cache)
    except render.RenderError as err:
        return (event(host, Reason.RENDER_FAILED, f"{found.ref}: {err}"),)
    if document is None:
        return (event(host, Reason.INVALID_TEMPLATE, f"{found.ref} has no network data"),)
    fmt = formats.template_format(found)
    if isinstance(fmt, str):
        return (event(host, Reason.INVALID_TEMPLATE, f"{found.ref}: {fmt}"),)
    texts = fmt.texts(document)
    if existing is not None:
        foreign = identity.refusal(HostRef.of(host), "Secret", existing.metadata)
        if foreign is not None:
            return (foreign,)
        if verify.matches(existing, texts, records):  # rendered before: release
            return decide_release(host, existing, profile)
    refused = netcheck.render_refusals(host, found, document, pools[1], pools[0], profile)
    if refused:  # pre-unpause validation: no Secret for data the ramdisk cannot use
        return refused
    version = None if existing is None else existing.metadata.resource_version or ""
    write = WriteSecret(
        host.namespace, secret_name(host), HostRef.of(host), texts[keys.NETWORK_DATA_KEY],
        data_format=fmt.name, other_keys=other_keys(texts),
        claimed=records.get(keys.CLAIMED_POOLS_ANNOTATION, ""),
        addresses=records.get(keys.CLAIMED_ADDRESSES_ANNOTATION, ""), replace=version,
        ramdisk_profile=profile,
    )  # fmt: skip
    said = _rendered(write.name, found, host)
    return (
        *(() if existing is None else (verify.mismatch(host, existing),)),
        write,
        event(host, Reason.SECRET_RERENDERED if existing else Reason.NETWORK_DATA_RENDERED, said),
        *decide_release(host, secret_object(write), profile),  # the writer releases (if written)
    )


def other_keys(texts: Mapping[str, str]) -> tuple[tuple[str, str], ...]:
    """The Secret keys a format writes besides `networkData`, in its order."""
    return tuple((key, text) for key, text in texts.items() if key != keys.NETWORK_DATA_KEY)


def _rendered(name: str, found: Found, host: BareMetalHost) -> str:
    """The Event text, saying which MAC a `fromHostInterface` fell back to and why."""
    data = found.template.network_data
    fallbacks = () if data is None else macs.boot_mac_fallbacks(data.links, host)
    return "; ".join((f"Secret {name} from {found.ref}", *fallbacks))


def _claim_error(claim: IPClaim) -> str:
    return f"IPClaim {claim.metadata.namespace}/{claim.metadata.name}: {claim.status.error_message}"
