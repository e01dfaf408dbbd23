"""Claims nobody will answer become a Warning, not a silent wait (issue 12, finding 9).

Metal3 IPAM says nothing in two cases: a claim of a pool that does not exist is never
reconciled into an address, and a pool whose `spec.clusterName` names a Cluster that does not
exist allocates nothing and returns without requeue (ip-address-manager
`controllers/ippool_controller.go`, Reconcile: the Cluster lookup). A waiting host whose
claims are unanswered for one of these reasons gets one Warning per claim from resync (a tick
is the only moment that knows the wait is not just IPAM's lag); the host stays paused and the
delete or pool event that follows the fix drives it on.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from dhcpless.chain.actions import RecordEvent
from dhcpless.errors import Gone
from dhcpless.kube import capi
from dhcpless.kube.client import Kube
from dhcpless.kube.recorder import Reason
from dhcpless.kube.refs import HostRef
from dhcpless.models import BareMetalHost, IPClaim


@dataclass(frozen=True, slots=True)
class Unanswered:
    """Why IPAM will not answer one claim: its pool is missing, or its pool's Cluster is."""

    claim: str
    namespace: str
    pool: str
    cluster: str | None = None
    """None: the pool itself is missing; else the Cluster the pool waits for."""


def pending(claims: Mapping[str, IPClaim]) -> list[IPClaim]:
    """Pure: claims with neither an address nor an error (IPAM has not answered)."""
    return [
        c
        for _, c in sorted(claims.items())
        if c.status.address is None and not c.status.error_message
    ]


def gather(kube: Kube, claims: Mapping[str, IPClaim]) -> tuple[Unanswered, ...]:
    """For each unanswered claim: GET its pool, and the pool's Cluster when it names one."""
    found: list[Unanswered] = []
    for claim in pending(claims):
        namespace, pool = claim.metadata.namespace or "default", claim.spec.pool.name
        try:
            cluster = kube.get_pool(namespace, pool).spec.cluster_name
        except Gone:
            found.append(Unanswered(claim.metadata.name, namespace, pool))
            continue
        if cluster and not capi.cluster_exists(kube, namespace, cluster):
            found.append(Unanswered(claim.metadata.name, namespace, pool, cluster))
    return tuple(found)


def decide(host: BareMetalHost, unanswered: tuple[Unanswered, ...]) -> tuple[RecordEvent, ...]:
    """Pure: one Warning per claim, naming the pool and what is missing."""
    ref, events = HostRef.of(host), list[RecordEvent]()
    for u in unanswered:
        where = f"IPClaim {u.namespace}/{u.claim}"
        why = (
            f"IPPool {u.namespace}/{u.pool} not found"
            if u.cluster is None
            else f"IPPool {u.namespace}/{u.pool} allocates nothing until Cluster "
            f"{u.namespace}/{u.cluster} exists (spec.clusterName)"
        )
        events.append(RecordEvent(ref, Reason.CLAIM_UNANSWERED, f"{where} waits: {why}"))
    return tuple(events)
