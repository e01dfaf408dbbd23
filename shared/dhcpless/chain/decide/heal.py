"""Self-healing of failed claims: IPAM never retries a claim it failed (metal3.md §d.4, §h.7).

A claim of ours with `status.errorMessage` (e.g. `Exhausted IP Pools`) is deleted, with an
Event, when something may have changed: its IPPool changed (an IPPool event reaches
ipclaim-fulfilment) or a resync tick looks at the host. Deleting it brings the claim's delete
event, and ipclaim-fulfilment re-drives the host's registration, which creates the missing
claim anew; IPAM then serves it from the pool as it is now. Recreation never happens on the
failed claim's own update event: with the pool still exhausted that would loop with IPAM. An
IPPool event whose pool cannot have gained room since the last one (`pool_room.may_have_room`)
lists nothing: a failed claim waits for the next change that frees room, or for a resync tick.
One that may have room retries at most as many failed claims as the pool has free addresses
(`pool_room.free_addresses`), oldest first (`answers.oldest_first`): each address freed in an
exhausted pool deleted and re-created every failed claim of it, and IPAM failed all but one
again (issue 24: 316 deletes for 10 freed addresses).
"""

from __future__ import annotations

from collections.abc import Sequence

from dhcpless.chain.actions import Action, DeleteIPClaim, RecordEvent
from dhcpless.models import BareMetalHost, IPClaim
from dhcpless.reasons import Reason
from dhcpless.refs import HostRef


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
