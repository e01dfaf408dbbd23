"""Read the facts one host needs, through the adapter, scoped to that host (no fleet LISTs).

Template lookup problems (none, ambiguous, invalid, missing) are *results*, not exceptions:
they become Warning Events while the host stays paused. Transient API errors propagate.
"""

from __future__ import annotations

from collections.abc import Iterable

from dhcpless import keys, names
from dhcpless.chain import identity
from dhcpless.chain.facts import Found, Problem, TemplateLookup
from dhcpless.errors import Gone, InvalidInput, Transient
from dhcpless.kube.api.client import Kube
from dhcpless.models import BareMetalHost, IPAddress, IPClaim, Metal3MachineTemplate, Secret
from dhcpless.models.refs import TemplateRef
from dhcpless.reasons import Reason
from dhcpless.refs import HostRef
from dhcpless.templates import resolve
from dhcpless.templates.selectors import ResolveError

__all__ = ["Found", "Problem", "TemplateLookup", "addresses", "host_claims", "secret_or_none"]
__all__ += ["selector", "template_for"]


def template_for(kube: Kube, host: BareMetalHost) -> TemplateLookup:
    """Annotation first (no LIST), else the Metal3MachineTemplates of the host's namespace."""
    m3mts = _machine_templates(kube, host)
    try:
        resolution = resolve.resolve_template(host, m3mts)
    except ResolveError as err:
        return Problem(Reason.INVALID_TEMPLATE, str(err), _broken(m3mts, err.broken))
    if isinstance(resolution, resolve.NoTemplate):
        return Problem(Reason.NO_TEMPLATE, resolution.reason)
    if isinstance(resolution, resolve.Ambiguous):
        return Problem(Reason.AMBIGUOUS_TEMPLATE, _ambiguity(resolution))
    return _fetch(kube, resolution.ref)


def _broken(
    m3mts: list[Metal3MachineTemplate], broken: tuple[tuple[str, str], ...]
) -> tuple[tuple[HostRef, str], ...]:
    """Each broken template and its Warning, written on the template itself (`resolve` fails
    small). The text names no host, so the Event's name is the same for every host it blocks:
    one Event per template and problem, however many hosts (`kube.recorder` deduplicates)."""
    why = dict(broken)
    return tuple(
        (_ref(m), f"{why[m.metadata.name]}; hosts it could select stay paused")
        for m in m3mts
        if m.metadata.name in why
    )


def _ref(m3mt: Metal3MachineTemplate) -> HostRef:
    meta = m3mt.metadata
    namespace, uid = meta.namespace or "default", meta.uid or ""
    return HostRef(namespace, meta.name, uid, m3mt.api_version, m3mt.kind)


def _machine_templates(kube: Kube, host: BareMetalHost) -> list[Metal3MachineTemplate]:
    if keys.TEMPLATE_REFERENCE_ANNOTATION in host.annotations:
        return []
    return kube.list_machine_templates(host.namespace)


def _fetch(kube: Kube, ref: TemplateRef) -> TemplateLookup:
    try:
        return Found(ref, kube.get_template(ref))
    except Gone:
        return Problem(
            Reason.NO_TEMPLATE, f"{ref.plural.kind} {ref.namespace}/{ref.name} not found"
        )
    except InvalidInput as err:  # the template's shape (ModelError) or a 400 from the API
        return Problem(Reason.INVALID_TEMPLATE, err.reason)


def _ambiguity(ambiguous: resolve.Ambiguous) -> str:
    names = ", ".join(
        f"{c.machine_template} -> {c.template.namespace}/{c.template.name}"
        for c in ambiguous.candidates
    )
    return f"several Metal3MachineTemplates select this host with different templates: {names}"


def selector(host: BareMetalHost) -> str:
    """Our labels for one host: what every label-scoped LIST of its objects selects."""
    return (
        f"{keys.HOST_LABEL}={host.name},{keys.HOST_NAMESPACE_LABEL}={host.namespace},"
        f"{keys.MANAGED_BY_LABEL}={keys.MANAGED_BY_VALUE}"
    )


def host_claims(kube: Kube, host: BareMetalHost, namespace: str) -> dict[str, IPClaim]:
    """Our claims for this host in `namespace`, by pool name (one LIST, label-scoped). Only
    claims of this very host count (`chain.identity`): a predecessor's under the same name,
    terminating or not, is not ours; creating ours finds it (`HostFacts.taken`). A host name no
    label can hold has no claims of ours, and its selector would be a 400 (`names.fits_label`)."""
    if not names.fits_label(host.name):
        return {}
    return mine(host, kube.list_claims(namespace, selector(host)))


def mine(host: BareMetalHost, listed: Iterable[IPClaim]) -> dict[str, IPClaim]:
    """Pure: of the claims listed by our labels, this very host's, by pool name."""
    ref = HostRef.of(host)
    return {
        c.spec.pool.name: c
        for c in listed
        if c.metadata.name == f"{host.name}-{c.spec.pool.name}"
        and identity.standing(c.metadata, ref) is identity.Standing.OURS
    }


def addresses(kube: Kube, claims: dict[str, IPClaim]) -> dict[str, IPAddress]:
    """The IPAddress of every fulfilled claim, by pool (the claim's namespace, as IPAM puts it)."""
    found: dict[str, IPAddress] = {}
    for pool, claim in sorted(claims.items()):
        ref = claim.status.address
        if ref is not None and ref.name:
            namespace = ref.namespace or claim.metadata.namespace or "default"
            found[pool] = _address(kube, namespace, ref.name, claim)
    return found


def _address(kube: Kube, namespace: str, name: str, claim: IPClaim) -> IPAddress:
    """The watch cache's copy when it is the one IPAM made for this very claim (`made_for`),
    else a read. A claim names its IPAddress only after IPAM created it: absence is a lag,
    retry."""
    cached = kube.cached_address(namespace, name)
    if cached is not None and made_for(cached, claim):
        return cached
    try:
        return kube.get_address(namespace, name)
    except Gone:
        raise Transient(f"IPAddress {namespace}/{name} not found yet") from None


def made_for(address: IPAddress, claim: IPClaim) -> bool:
    """Pure: `address` is the object IPAM created for `claim` (the claim read fresh, so its
    UID is current). IPAM owns each IPAddress by its IPClaim, UID included, and names it after
    the IP (ip-address-manager `ipam/ippool_manager.go`, `createAddress`, `formatAddressName`);
    its address, pool and claim cannot change (`internal/webhooks/v1alpha1/ipaddress_webhook.go`,
    `ValidateUpdate`), and IPAM writes prefix, gateway and DNS servers only when it creates it.
    So a cached copy owned by this claim's UID is that object as created: a name reused after a
    delete belongs to another claim (another UID) and is read directly instead. An edit of
    prefix, gateway or DNS by hand reaches the cache when its watch event does, the bound the
    templates have (README "Watch cache")."""
    uid = claim.metadata.uid
    owners = address.metadata.owner_references
    mine = any(o.kind == "IPClaim" and o.uid == uid for o in owners)
    return bool(uid) and mine and address.spec.claim.name == claim.metadata.name


def secret_or_none(kube: Kube, namespace: str, name: str) -> Secret | None:
    try:
        return kube.get_secret(namespace, name)
    except Gone:
        return None
