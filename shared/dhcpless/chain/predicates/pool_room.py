"""Pure predicates on an IPPool's room: how many addresses IPAM can still hand out, and whether
a pool can have gained room since it was last seen. Why they bound retries: `decide.heal`; who
remembers the marks: `chain.hints`.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable
from dataclasses import dataclass

from dhcpless.models import IPPool


def free_addresses(pool: IPPool) -> int | None:
    """Pure: how many addresses IPAM can still hand out from `pool` to a claim that is not
    pre-allocated: the addresses of its ranges (`render.validate_pools.entry_span`, as
    ip-address-manager's GetIPAddress walks them) less those it holds (`status.indexes`) or
    reserves (`spec.preAllocations`). None when a range cannot be read: then nothing is bounded."""
    from dhcpless.render.validate_pools import entry_span  # render layer, pure

    spans = [entry_span(entry) for entry in pool.spec.pools]
    if any(span is None for span in spans):
        return None
    size = sum(span.last - span.first + 1 for span in spans if span is not None)
    taken = {*pool.status.indexes.values(), *pool.spec.pre_allocations.values()}
    return max(size - len(taken), 0)


@dataclass(frozen=True, slots=True)
class PoolMark:
    """What of an IPPool decides whether it can have room it did not have: which pool it is
    (UID), its spec (`metadata.generation`, bumped by every spec change and by no status
    write) and what it holds (`status.indexes`: claim name -> address, rebuilt by IPAM from
    its IPAddresses, ip-address-manager `ipam/ippool_manager.go` `getIndexes`), as one hash
    per entry: a mark is kept per pool for the process's life, and a pool's indexes name every
    claim of the fleet (issue 28). The hashes are held sorted in a machine-word array (8 bytes
    each; a set of Python ints costs seven times that). A collision could only hide freed
    room until the next resync tick; it never makes a retry that should not happen."""

    uid: str
    generation: int | None
    held: array[int]


def held(entries: Iterable[tuple[str, str]]) -> array[int]:
    """The hashes of (claim name, address) entries, sorted: a mark's `held`."""
    return array("q", sorted(hash(entry) for entry in entries))


def mark(pool: IPPool) -> PoolMark:
    return PoolMark(
        pool.metadata.uid or "", pool.metadata.generation, held(pool.status.indexes.items())
    )


def may_have_room(before: PoolMark | None, now: PoolMark) -> bool:
    """Pure: can a claim this pool failed succeed now when it could not at `before`? Only if
    it is another pool under that name, its spec changed, or an address it held was freed.
    IPAM writes the pool's status at every allocation (`UpdateAddresses`): those events only
    take room, and listing every claim of ours for each of them was the chain's hot spot."""
    if before is None or before.uid != now.uid or before.generation != now.generation:
        return True
    return not set(before.held) <= set(now.held)
