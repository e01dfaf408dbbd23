"""A claim of ours deleted while its host lives is claimed again (issue 12, finding 8).

After release the host keeps using its address (fast-track ramdisk, deploy and cleaning boots,
`decide.lifecycle`), so nothing of ours deletes its claim; someone else may. IPAM then frees the
address (ip-address-manager `ipam/ippool_manager.go` `deleteAddress`: a deleted claim's
address is released unless pre-allocated) and may hand it to another claim. We claim again
under the same name, so the host holds an address again, and say so with a `ClaimDeleted`
Warning: IPAM may have given a different address, which the host's network data does not have.

Two occasions, one decision (`decide`): the claim's DELETE event (`HostFacts.gone`), and a
resync tick (`HostFacts.held`), because the event source loses events (no replay after a
restart) and the address would then stay free for ever.

What the host must hold is read from what we wrote and can verify (issue 24, finding 4): the
record on the host's own Secret (`ownership.trusted`: named by the host, our labels and its
UID), `keys.CLAIMED_POOLS_ANNOTATION` and `keys.CLAIMED_ADDRESSES_ANNOTATION`, written when the
data was rendered and verified with it (`decide.verify`). The copy of the pools on the host
(the release patch writes it) is only a hint of where to look (`ownership.recorded`): anyone
who may annotate hosts can write it, so it never decides what is created. Claims are made in
the host's own namespace only, owned by the host (garbage-collected with it): a record naming
another namespace is not ours to act on. The claim made again asks IPAM for the host's own
address back (`keys.REQUESTED_IP_ANNOTATION`; `decide.restored` says when it could not have
it).
Cost on a tick: resync LISTs our claims once per namespace with a hint
(`chain.gather.released.ours_in`); a host runs its pipeline, and its Secret is read, only when
a claim is missing.
"""

from __future__ import annotations

from dhcpless.chain import identity
from dhcpless.chain.actions import Action, CreateIPClaim, RecordEvent
from dhcpless.chain.facts import HostFacts, taken_key
from dhcpless.chain.predicates.on_host import released
from dhcpless.chain.predicates.ownership import missing, trusted
from dhcpless.reasons import Reason
from dhcpless.refs import HostRef


def decide(facts: HostFacts) -> tuple[Action, ...]:
    """Pure: each claim the host should hold and does not is made again, with a Warning; one
    under our name that is not this host's (or is going) is reported instead, never used."""
    host = facts.host
    if not released(host):
        return ()
    wanted = {**_from_tick(facts), **_from_gone(facts)}
    actions: list[Action] = []
    for name, (namespace, pool) in sorted(wanted.items()):
        actions += _again(facts, namespace, name, pool)
    return tuple(actions)


def _from_gone(facts: HostFacts) -> dict[str, tuple[str, str]]:
    """The deleted claim of the DELETE event, if it was this very host's `<bmh>-<pool>` in
    the host's namespace, of a pool its Secret's record names when there is one: a claim the
    release left unused (`claims.stale`: relabelled to another template) is not claimed
    again."""
    gone, host = facts.gone, facts.host
    if gone is None or gone.metadata.name != f"{host.name}-{gone.spec.pool.name}":
        return {}
    if (gone.metadata.namespace or host.namespace) != host.namespace:
        return {}
    if not identity.made_for(gone.metadata, HostRef.of(host)):
        return {}
    record = trusted(host, facts.secret)
    if record is not None and gone.spec.pool.name not in record.pools:
        return {}
    return {gone.metadata.name: (host.namespace, gone.spec.pool.name)}


def _from_tick(facts: HostFacts) -> dict[str, tuple[str, str]]:
    """On a tick (`held` read): the claims the host's own Secret records, not among those
    listed. The hint on the host only made us look."""
    host, record = facts.host, trusted(facts.host, facts.secret)
    if facts.held is None or record is None:
        return {}
    lost = missing(host, facts.held, record.pools)
    return {f"{host.name}-{p}": (record.namespace, p) for p in lost}


def _again(facts: HostFacts, namespace: str, name: str, pool: str) -> list[Action]:
    """Create, unless something is there (listed, or found by our create): then ours is
    nothing to do, anyone else's or a terminating one is a Warning (`identity.refusal`). The
    new claim asks for the address the host's Secret records for the pool, if any."""
    ref = HostRef.of(facts.host)
    there = facts.taken.get(taken_key("IPClaim", name))
    there = there or next((c for c in facts.held or () if c.metadata.name == name), None)
    if there is not None:
        refused = identity.refusal(ref, "IPClaim", there.metadata)
        return [] if refused is None else [refused]
    record = trusted(facts.host, facts.secret)
    address = "" if record is None else record.addresses.get(pool, "")
    asked = (
        f"asking IPAM for the host's address {address} back"
        if address
        else "IPAM may give another address than the host's network data has"
    )
    message = (
        f"IPClaim {namespace}/{name} was deleted while the host uses its address; "
        f"claimed again ({asked})"
    )
    return [
        CreateIPClaim(namespace, name, pool, ref, address=address),
        RecordEvent(ref, Reason.CLAIM_DELETED, message),
    ]
