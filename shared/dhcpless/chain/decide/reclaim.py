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

What the host must hold is read from what we wrote and can verify (issue 24, finding 4):
the record on the host's own Secret (`trusted`: named by the host, our labels and its UID),
`keys.CLAIMED_POOLS_ANNOTATION` and `keys.CLAIMED_ADDRESSES_ANNOTATION`, written when the data
was rendered and verified with it (`decide.verify`). The copy of the pools on the host (the
release patch writes it) is only a hint of where to look (`recorded`): anyone who may annotate
hosts can write it, so it never decides what is created. Claims are made in the host's own
namespace only, owned by the host (garbage-collected with it): a record naming another
namespace is not ours to act on. The claim made again asks IPAM for the host's own address
back (`keys.REQUESTED_IP_ANNOTATION`; `decide.restored` says when it could not have it).
Cost on a tick: resync LISTs our claims once per namespace with a hint
(`chain.gather.released.ours_in`); a host runs its pipeline, and its Secret is read, only when
a claim is missing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from dhcpless import keys
from dhcpless.chain import identity
from dhcpless.chain.actions import Action, CreateIPClaim, RecordEvent
from dhcpless.chain.facts import HostFacts, taken_key
from dhcpless.chain.gate import gate
from dhcpless.models import BareMetalHost, IPClaim, Secret
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


def addresses_text(addresses: Mapping[str, str]) -> str:
    """`keys.CLAIMED_ADDRESSES_ANNOTATION`'s value: `<pool>=<address>` for each pool."""
    return ",".join(f"{pool}={address}" for pool, address in sorted(addresses.items()) if address)


def parse(text: str, namespace: str) -> Record | None:
    """Pure: the record, or None when absent, malformed or not in `namespace` (the host's:
    our claims live there, so a record naming another namespace is not ours to act on)."""
    entries = [e.partition("/") for e in text.split(",")] if text else []
    if not entries or any(not ns or not sep or not pool for ns, sep, pool in entries):
        return None
    if {ns for ns, _, _ in entries} != {namespace}:
        return None
    return namespace, tuple(sorted({pool for _, _, pool in entries}))


def parse_addresses(text: str) -> dict[str, str]:
    """Pure: pool -> address from `addresses_text`; a malformed entry is left out."""
    pairs = (e.partition("=") for e in text.split(",")) if text else ()
    return {pool: address for pool, sep, address in pairs if pool and sep and address}


def recorded(host: BareMetalHost) -> Record | None:
    """Pure: the hint on a released host of the claims it holds (where resync looks; None: no
    usable hint). Never what is created: that is `trusted`."""
    if not released(host):
        return None
    return parse(host.annotations.get(keys.CLAIMED_POOLS_ANNOTATION, ""), host.namespace)


@dataclass(frozen=True, slots=True)
class Trusted:
    """The record on the host's own Secret: its claims' pools and the address each gave."""

    namespace: str
    pools: tuple[str, ...]
    addresses: Mapping[str, str] = field(default_factory=dict)


def trusted(host: BareMetalHost, secret: Secret | None) -> Trusted | None:
    """Pure: the record of a released host's own Secret (the one it names, with our labels
    and its UID), in the host's namespace; None when there is no such Secret or record."""
    if not released(host) or secret is None:
        return None
    meta = secret.metadata
    if meta.name != host.spec.preprovisioning_network_data_name:
        return None
    if not identity.made_for(meta, HostRef.of(host)):
        return None
    record = parse(meta.annotations.get(keys.CLAIMED_POOLS_ANNOTATION, ""), host.namespace)
    if record is None:
        return None
    addresses = parse_addresses(meta.annotations.get(keys.CLAIMED_ADDRESSES_ANNOTATION, ""))
    return Trusted(record[0], record[1], addresses)


def missing(
    host: BareMetalHost, held: tuple[IPClaim, ...], pools: tuple[str, ...] | None = None
) -> tuple[str, ...]:
    """Pure: the pools (default: the host's hint) without a live claim of this very host among
    `held` (listed by our labels in the host's namespace). One under the name that is not
    (another host's, a predecessor's, a terminating one) counts as missing: `decide` reports
    it, never uses it."""
    if pools is None:
        record = recorded(host)
        pools = () if record is None else record[1]
    ref = HostRef.of(host)
    ours = {
        c.metadata.name
        for c in held
        if identity.standing(c.metadata, ref) is identity.Standing.OURS
    }
    return tuple(p for p in pools if f"{host.name}-{p}" not in ours)


def wants_record(host: BareMetalHost, held: tuple[IPClaim, ...] | None, gone: bool) -> bool:
    """Pure: a re-claim may be due, so the host's Secret (its trusted record) must be read."""
    return released(host) and (gone or (held is not None and bool(missing(host, held))))


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
