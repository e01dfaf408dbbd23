"""The host owns its addresses for its whole life; CAPM3 borrows them (README "IP lifecycle").

Facts this rests on (read upstream):

* Fast track is on by default in Metal3's Ironic (ironic-image `scripts/ironic-common.sh`): after
  inspection the ramdisk keeps running with the pre-provisioning address, and deployment and
  later cleaning boot with the same Secret (BMO updates the node's data in every registered
  state, `controllers/metal3.io/host_state_machine.go` `ensureRegistered`). So an address is in
  use for as long as the host exists: nothing here ever deletes our claim; the host's deletion
  releases it (its ownerReference -> garbage collection, which deletes a dependent only once
  *all* its owners are gone).
* CAPM3 (`baremetal/metal3data_manager.go` `ensureM3IPClaim`) GETs `<metal3data>-<pool>`, else
  `<bmh>-<pool>` whatever `--enable-bmh-name-based-preallocation` says, else creates a claim;
  `addressFromM3Claim` uses a claim only if one of its ownerReferences has the Metal3Data's UID
  and otherwise requeues for ever. So once CAPM3's Metal3Data for the host exists, we add it
  as a second owner of our `<bmh>-<pool>` claims: CAPM3 then uses the very address the ramdisk
  has, and there is no moment in which it is free. When CAPM3 deletes that Metal3Data
  (`releaseAddressFromM3Pool` deletes only `<metal3data>-<pool>` and claims carrying its data
  labels, neither of which is ours), garbage collection drops it from the owners and the host
  keeps the claim.
* The Metal3Data of a host: CAPM3 names the Metal3DataClaim after the Metal3Machine
  (`baremetal/metal3machine_manager.go`), the Metal3Data's `spec.claim` names that claim, and
  the host's `spec.consumerRef` names the Metal3Machine.
"""

from __future__ import annotations

from collections.abc import Mapping

from dhcpless import keys
from dhcpless.chain.actions import Action, LendClaim, RecordEvent
from dhcpless.chain.facts import HostFacts
from dhcpless.chain.predicates import collision
from dhcpless.chain.predicates.collision import Clash
from dhcpless.models import IPClaim
from dhcpless.models.capm3 import Metal3Data
from dhcpless.reasons import Reason
from dhcpless.refs import HostRef


def decide(facts: HostFacts) -> tuple[Action, ...]:
    """Pure: each claim not yet owned by each live Metal3Data gets it as an owner, once; a
    Metal3Data whose `<metal3data>-<pool>` is another host's claim gets none (`collision`)."""
    actions: list[Action] = []
    ref = HostRef.of(facts.host)
    pending = [d for d in facts.data if _pending(facts, d)]
    found = collision.find(facts.host.name, pending, facts.claims, facts.capm3_named)
    refused = {c.data for c in found if c.clash is Clash.OTHER}
    for _, claim in sorted(facts.claims.items()):
        owners = {o.uid for o in claim.metadata.owner_references}
        for data in pending:
            uid = data.metadata.uid or ""
            if uid and uid not in owners and data.metadata.name not in refused:
                actions += _lend(ref, claim, data)
    return tuple(actions) + _warnings(ref, found, facts.capm3_named)


def _pending(facts: HostFacts, data: Metal3Data) -> bool:
    """Some claim of the host is not yet owned by this Metal3Data."""
    uid = data.metadata.uid or ""
    return bool(uid) and any(
        uid not in {o.uid for o in c.metadata.owner_references} for c in facts.claims.values()
    )


def _warnings(
    ref: HostRef, found: tuple[collision.Collision, ...], named: Mapping[str, IPClaim]
) -> tuple[Action, ...]:
    """One Warning per collision on this host and, for another host's claim, one on it too."""
    actions: list[Action] = []
    for item in found:
        if item.clash is Clash.OWN:
            actions.append(RecordEvent(ref, Reason.NAME_COLLISION, collision.message(item, "")))
            continue
        actions.append(RecordEvent(ref, Reason.LENDING_REFUSED, collision.message(item, "")))
        other = _holder_ref(named[item.claim], item.holder, ref.namespace)
        actions.append(
            RecordEvent(other, Reason.NAME_COLLISION, collision.message(item, item.holder))
        )
    return tuple(actions)


def _holder_ref(claim: IPClaim, name: str, namespace: str) -> HostRef:
    """The host another claim of ours is for: our labels, its BareMetalHost owner's UID."""
    uid = next((o.uid for o in claim.metadata.owner_references if o.kind == "BareMetalHost"), "")
    where = claim.metadata.labels.get(keys.HOST_NAMESPACE_LABEL) or namespace
    return HostRef(where, name, uid or "")


def _lend(ref: HostRef, claim: IPClaim, data: Metal3Data) -> list[Action]:
    namespace = claim.metadata.namespace or ref.namespace
    lend = LendClaim(
        namespace, claim.metadata.name, ref, data.metadata.name, data.metadata.uid or "",
        claim.metadata.resource_version or "",
        claim.metadata.owner_references,
    )  # fmt: skip
    message = (
        f"IPClaim {namespace}/{claim.metadata.name} lent to Metal3Data {data.metadata.name}: "
        "CAPM3 uses the address the host has; the host's deletion frees it"
    )
    return [lend, RecordEvent(ref, Reason.CLAIM_LENT, message)]
