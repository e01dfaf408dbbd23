"""Claims nobody will answer become a Warning, not a silent wait (issue 12, finding 9).

Metal3 IPAM says nothing in two cases: a claim of a pool that does not exist is never
reconciled into an address, and a pool whose `spec.clusterName` names a Cluster that does not
exist allocates nothing and returns without requeue (ip-address-manager
`controllers/ippool_controller.go`, Reconcile: the Cluster lookup). A waiting host whose
claims are unanswered for one of these reasons gets one Warning per claim from resync (a tick
is the only moment that knows the wait is not just IPAM's lag); the host stays paused. IPAM
does not watch Clusters (its IPPool controller watches IPClaims and IPAddressClaims only), so
once the Cluster exists a later tick touches the claim (`keys.NUDGED_ANNOTATION`): that IPClaim
event makes IPAM reconcile the pool and serve it.
"""

from __future__ import annotations

from datetime import datetime

from dhcpless.chain.actions import Action, NudgeClaim, RecordEvent
from dhcpless.chain.facts import Unanswered
from dhcpless.models import BareMetalHost
from dhcpless.reasons import Reason
from dhcpless.refs import HostRef


def decide(
    host: BareMetalHost, unanswered: tuple[Unanswered, ...], now: datetime
) -> tuple[Action, ...]:
    """Pure: one Warning per claim, naming the pool and what is missing; a nudge for a claim
    whose pool's Cluster exists now."""
    ref, events = HostRef.of(host), list[Action]()
    for u in unanswered:
        if u.nudge:
            at = now.strftime("%Y-%m-%dT%H:%M:%SZ")
            events.append(NudgeClaim(u.namespace, u.claim, ref, at, u.has_annotations))
            continue
        if u.external:
            message = (
                f"IPAddressClaim {u.namespace}/{u.claim} waits: no address and no failure from "
                f"the provider of pool {u.pool} (an exhausted pool may say nothing)"
            )
            events.append(RecordEvent(ref, Reason.CLAIM_UNANSWERED, message))
            continue
        where = f"IPClaim {u.namespace}/{u.claim}"
        why = (
            f"IPPool {u.namespace}/{u.pool} not found"
            if u.cluster is None
            else f"IPPool {u.namespace}/{u.pool} allocates nothing until Cluster "
            f"{u.namespace}/{u.cluster} exists (spec.clusterName)"
        )
        events.append(RecordEvent(ref, Reason.CLAIM_UNANSWERED, f"{where} waits: {why}"))
    return tuple(events)
