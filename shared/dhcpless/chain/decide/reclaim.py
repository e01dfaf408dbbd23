"""A claim of ours deleted while its host lives is claimed again (issue 12, finding 8).

After release the host keeps using its address (fast-track ramdisk, deploy and cleaning boots,
`decide.lifecycle`), so nothing of ours deletes its claim; someone else may. IPAM then frees the
address (ip-address-manager `ipam/ippool_manager.go` `deleteAddress`: a deleted claim's
address is released unless pre-allocated) and may hand it to another claim. We claim again
under the same name, so the host holds an address again, and say so with a `ClaimDeleted`
Warning: IPAM may have given a different address, which the host's network data does not have.

Two occasions, one decision (`decide`): the claim's DELETE event (`HostFacts.gone`), and a
resync tick (`HostFacts.held`), because the event source loses events (no replay after a
restart) and the address would then stay free for ever. A tick knows which claims the host
must hold from `keys.CLAIMED_POOLS_ANNOTATION`, recorded on the Secret when it was written and
copied onto the host by the release patch: the pools the host's data came from, whatever the
template says later (an edit after release must neither drop a claim nor add one). A host
released before the record existed has none: only the DELETE event re-claims for it.
Cost on a tick: resync LISTs our claims once per namespace named by a record
(`chain.gather.released.ours_in`), and a host runs its pipeline only when one is missing.
"""

from __future__ import annotations

from dhcpless import keys
from dhcpless.chain import identity
from dhcpless.chain.actions import Action, CreateIPClaim, RecordEvent
from dhcpless.chain.facts import HostFacts, taken_key
from dhcpless.chain.gate import gate
from dhcpless.models import BareMetalHost, IPClaim
from dhcpless.reasons import Reason
from dhcpless.refs import HostRef

Record = tuple[str, tuple[str, ...]]
"""A host's recorded claims: (namespace, pool names)."""


def released(host: BareMetalHost) -> bool:
    """Pure: released by us, not paused for us again, not being deleted."""
    return (
        not gate(host).ours
        and keys.RELEASED_AT_ANNOTATION in host.annotations
        and not host.metadata.deletion_timestamp
    )


def record_text(namespace: str, pools: tuple[str, ...]) -> str:
    """`keys.CLAIMED_POOLS_ANNOTATION`'s value for claims of `pools` in `namespace`."""
    return ",".join(f"{namespace}/{pool}" for pool in pools)


def parse(text: str) -> Record | None:
    """Pure: the record, or None when absent or malformed (claims live in one namespace,
    the template's, so a record naming two is not ours to act on)."""
    entries = [e.partition("/") for e in text.split(",")] if text else []
    if not entries or any(not ns or not sep or not pool for ns, sep, pool in entries):
        return None
    namespaces = {ns for ns, _, _ in entries}
    if len(namespaces) != 1:
        return None
    return namespaces.pop(), tuple(sorted({pool for _, _, pool in entries}))


def recorded(host: BareMetalHost) -> Record | None:
    """Pure: the claims a released host holds for its whole life (None: no usable record)."""
    if not released(host):
        return None
    return parse(host.annotations.get(keys.CLAIMED_POOLS_ANNOTATION, ""))


def missing(host: BareMetalHost, held: tuple[IPClaim, ...]) -> tuple[str, ...]:
    """Pure: the recorded pools without a live claim of this very host among `held` (listed
    by our labels in the record's namespace). One under the name that is not (another host's,
    a predecessor's, a terminating one) counts as missing: `decide` reports it, never uses it."""
    record, ref = recorded(host), HostRef.of(host)
    ours = {
        c.metadata.name
        for c in held
        if identity.standing(c.metadata, ref) is identity.Standing.OURS
    }
    return () if record is None else tuple(p for p in record[1] if f"{host.name}-{p}" not in ours)


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
    """The deleted claim of the DELETE event, if it was this very host's `<bmh>-<pool>`."""
    gone, host = facts.gone, facts.host
    if gone is None or gone.metadata.name != f"{host.name}-{gone.spec.pool.name}":
        return {}
    if not identity.made_for(gone.metadata, HostRef.of(host)):
        return {}
    return {gone.metadata.name: (gone.metadata.namespace or host.namespace, gone.spec.pool.name)}


def _from_tick(facts: HostFacts) -> dict[str, tuple[str, str]]:
    """On a tick (`held` read): the recorded claims not among those listed."""
    host, record = facts.host, recorded(facts.host)
    if facts.held is None or record is None:
        return {}
    return {f"{host.name}-{p}": (record[0], p) for p in missing(host, facts.held)}


def _again(facts: HostFacts, namespace: str, name: str, pool: str) -> list[Action]:
    """Create, unless something is there (listed, or found by our create): then ours is
    nothing to do, anyone else's or a terminating one is a Warning (`identity.refusal`)."""
    ref = HostRef.of(facts.host)
    there = facts.taken.get(taken_key("IPClaim", name))
    there = there or next((c for c in facts.held or () if c.metadata.name == name), None)
    if there is not None:
        refused = identity.refusal(ref, "IPClaim", there.metadata)
        return [] if refused is None else [refused]
    message = (
        f"IPClaim {namespace}/{name} was deleted while the host uses its address; "
        "claimed again (IPAM may give another address than the host's network data has)"
    )
    return [
        CreateIPClaim(namespace, name, pool, ref),
        RecordEvent(ref, Reason.CLAIM_DELETED, message),
    ]
