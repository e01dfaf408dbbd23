"""Self-healing of failed claims: IPAM never retries a claim it failed (metal3.md §d.4, §h.7).

A claim of ours with `status.errorMessage` (e.g. `Exhausted IP Pools`) is deleted, with an
Event, when something may have changed: its IPPool changed (an IPPool event reaches
ipclaim-fulfilment) or a resync tick looks at the host. Deleting it brings the claim's delete
event, and ipclaim-fulfilment re-drives the host's registration, which creates the missing
claim anew; IPAM then serves it from the pool as it is now. Recreation never happens on the
failed claim's own update event: with the pool still exhausted that would loop with IPAM.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from dhcpless import keys
from dhcpless.chain.actions import Action, DeleteIPClaim, RecordEvent
from dhcpless.models import BareMetalHost, IPClaim
from dhcpless.reasons import Reason
from dhcpless.refs import HostRef


def failed(claims: Iterable[IPClaim], pool: str | None = None) -> list[IPClaim]:
    """Claims IPAM failed and nobody is deleting yet, optionally of one pool, by name."""
    found = [
        c
        for c in claims
        if c.status.error_message
        and not c.metadata.deletion_timestamp
        and (pool is None or c.spec.pool.name == pool)
    ]
    return sorted(found, key=lambda c: c.metadata.name)


def decide_retry(host: BareMetalHost, claims: Sequence[IPClaim]) -> tuple[Action, ...]:
    """Pure: delete each failed claim and say so (the claim's UID makes each retry its own
    Event: Events are deduplicated by message)."""
    ref, actions = HostRef.of(host), list[Action]()
    for claim in claims:
        namespace = claim.metadata.namespace or host.namespace
        uid = (claim.metadata.uid or "")[:8]
        message = (
            f"IPClaim {namespace}/{claim.metadata.name} failed ({claim.status.error_message}); "
            f"deleted to be claimed again (claim {uid})"
        )
        actions += [
            DeleteIPClaim(namespace, claim.metadata.name, ref),
            RecordEvent(ref, Reason.CLAIM_RETRIED, message),
        ]
    return tuple(actions)


def selector(namespace: str, name: str) -> str:
    """Our labels for the host (namespace, name): a label-scoped LIST of its claims."""
    return (
        f"{keys.HOST_LABEL}={name},{keys.HOST_NAMESPACE_LABEL}={namespace},"
        f"{keys.MANAGED_BY_LABEL}={keys.MANAGED_BY_VALUE}"
    )


def host_of(claim: IPClaim) -> tuple[str, str] | None:
    """(namespace, name) of the host a claim of ours serves, from its labels."""
    labels = claim.metadata.labels
    if labels.get(keys.MANAGED_BY_LABEL) != keys.MANAGED_BY_VALUE or keys.HOST_LABEL not in labels:
        return None
    namespace = labels.get(keys.HOST_NAMESPACE_LABEL) or claim.metadata.namespace or "default"
    return namespace, labels[keys.HOST_LABEL]
