"""ipclaim-fulfilment's short path: one read per fulfilled claim until the last one.

Exists because re-resolving the template and re-reading claims, Secret and pools on every
fulfilled claim cost about a dozen reads per host (README "Performance"). host-registration
records on each IPClaim the template and every pool of the host (`keys.CLAIM_*_ANNOTATION`);
IPAM copies the claim's labels onto its IPAddress. So a fulfilled claim's event needs one LIST
of the host's IPAddresses to know whether every pool has its address, and only the event of
the claim whose address came last (the highest resourceVersion: etcd revisions grow) goes on,
to the full pipeline (`chain.state`). It does not render from the template recorded on the
claim: the host may have been relabelled, or another Metal3MachineTemplate may have made the
choice ambiguous, since the claims were made (issue 12, finding 6); and the full path checks
that every claim and Secret is this host's (`chain.identity`).

Anything unexpected (claims without the annotations, the claim's own address not among the
labelled ones, a template that no longer names the same pools, lookup problems) returns False:
the caller takes the full path, which reports it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from dhcpless import keys, resolve
from dhcpless.kube.client import Kube
from dhcpless.models import IPAddress, IPClaim
from dhcpless.web import Settings

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Recorded:
    """What host-registration recorded on the claim."""

    template: resolve.TemplateRef
    pools: tuple[str, ...]


def recorded(claim: IPClaim) -> Recorded | None:
    """Pure: the claim's annotations, or None when absent or unreadable (take the full path)."""
    notes = claim.metadata.annotations
    text, pools = notes.get(keys.CLAIM_TEMPLATE_ANNOTATION), notes.get(keys.CLAIM_POOLS_ANNOTATION)
    if not text or not pools or text.count("/") != 2:
        return None
    resource, namespace, name = text.split("/")
    try:
        ref = resolve.parse_template_reference(f"{resource}/{name}", namespace)
    except resolve.ResolveError:
        return None
    return Recorded(ref, tuple(pools.split(",")))


def by_pool(addresses: list[IPAddress], host: str, pools: tuple[str, ...]) -> dict[str, IPAddress]:
    """Pure: the host's address of each pool (IPAM names the claim `<host>-<pool>`)."""
    return {
        a.spec.pool.name: a
        for a in addresses
        if a.spec.pool.name in pools and a.spec.claim.name == f"{host}-{a.spec.pool.name}"
    }


def last(claim: IPClaim, addresses: dict[str, IPAddress]) -> bool:
    """Pure: is the claim's address the newest of the host's? (Opaque resourceVersions: yes,
    so every invocation renders and the Secret's create decides, as before.)"""
    versions = {a.metadata.name: a.metadata.resource_version or "" for a in addresses.values()}
    if not all(v.isdigit() for v in versions.values()):
        return True
    mine = versions.get(claim.status.address.name if claim.status.address else "", "")
    return mine != "" and int(mine) == max(int(v) for v in versions.values())


def handle(claim: IPClaim, owner: tuple[str, str], kube: Kube, settings: Settings) -> bool:
    """True when the claim's event is handled here (rendered, or nothing to do yet)."""
    notes = recorded(claim)
    if notes is None or claim.status.address is None:
        return False
    namespace = claim.metadata.namespace or "default"
    addresses = by_pool(kube.list_addresses(namespace, _selector(owner)), owner[1], notes.pools)
    if claim.status.address.name not in {a.metadata.name for a in addresses.values()}:
        return False  # an IPAM that does not copy the claim's labels: the full path
    if len(addresses) < len(notes.pools) or not last(claim, addresses):
        have, want = len(addresses), len(notes.pools)
        log.info("host %s/%s: %d of %d addresses, or not the last", *owner, have, want)
        return True
    return False  # the last address: the full pipeline renders from what applies now


def _selector(owner: tuple[str, str]) -> str:
    namespace, name = owner
    return (
        f"{keys.HOST_LABEL}={name},{keys.HOST_NAMESPACE_LABEL}={namespace},"
        f"{keys.MANAGED_BY_LABEL}={keys.MANAGED_BY_VALUE}"
    )
