"""Restored: did a re-claim get the host's own address back? (issue 24, finding 3)

A claim deleted while its host lives is made again asking IPAM for the address the host's
Secret records (`decide.reclaim`, `keys.REQUESTED_IP_ANNOTATION`). The machine keeps running
that address (fast track, deploy and cleaning boots reuse the Secret), so if IPAM gave it to
another claim meanwhile (a host that registered in the window), IPAM fails ours with
"Requested IP not available" (ip-address-manager `ipam/ippool_manager.go` `allocateAddress`),
and an IPAM that ignores the annotation (before v1.10) gives another address. Either way two
machines may now use one address, and only a person can choose which host gives it up: a
Warning on the host says so, with the addresses. Nothing is written besides.
"""

from __future__ import annotations

from dhcpless import keys
from dhcpless.chain.actions import Action, RecordEvent
from dhcpless.chain.facts import HostFacts
from dhcpless.models import IPAddress, IPClaim
from dhcpless.reasons import Reason
from dhcpless.refs import HostRef


def decide(facts: HostFacts) -> tuple[Action, ...]:
    """Pure: one `AddressNotRestored` Warning per re-claim that did not get its address."""
    ref = HostRef.of(facts.host)
    said = (_problem(claim, address) for claim, address in facts.reclaimed)
    return tuple(RecordEvent(ref, Reason.ADDRESS_NOT_RESTORED, m) for m in said if m)


def _problem(claim: IPClaim, address: IPAddress | None) -> str | None:
    """Why the claim does not hold the address it asked for (None: it does)."""
    wanted = claim.metadata.annotations.get(keys.REQUESTED_IP_ANNOTATION, "")
    where = f"IPClaim {claim.metadata.namespace}/{claim.metadata.name}"
    tail = (
        f"the host's network data still has {wanted}, so two machines may use it: free "
        f"{wanted} (release it from whichever host should give it up), then delete {where} "
        "to claim it again"
    )
    if claim.status.error_message:
        return f"{where} asked for {wanted} and failed ({claim.status.error_message}); {tail}"
    if address is not None and address.spec.address != wanted:
        return f"{where} asked for {wanted} and was given {address.spec.address}; {tail}"
    return None
