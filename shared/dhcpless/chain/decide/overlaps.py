"""Pools that overlap across served namespaces: a Warning, not a refusal (issue 24, finding 2).

The pool rule (`render.validate_pools`) refuses, before release, a host whose pools overlap
another pool of the template's namespace: there one tenant made both, and two of its hosts
would get one address. Across namespaces (the cluster-wide layout) the same overlap is common
and often right (sites reuse ranges on separate networks), so it cannot be refused; but when
the networks are one, IPAM, which allocates from each pool alone, gives one address to two
machines with nobody told. resync, which lists every served namespace, posts one
`PoolsOverlap` Warning on each pool of such a pair, naming the other and the shared range, so
a person can tell which it is. Pure: pools in, Events out.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator, Mapping, Sequence

from dhcpless import keys
from dhcpless.chain.actions import RecordEvent
from dhcpless.models import IPPool
from dhcpless.reasons import Reason
from dhcpless.refs import HostRef
from dhcpless.render.validate_pools import entry_span, overlap_text

POOL_API = f"{keys.IPAM_GROUP}/{keys.IPAM_VERSION}"


def across(pools: Mapping[str, Sequence[IPPool]]) -> tuple[RecordEvent, ...]:
    """Pure: the Warnings for pools of different namespaces (`pools`: by namespace) that can
    hand out the same addresses; pools of one namespace are the pool rule's. The pairs come
    from one sweep over every range (`_touching`), in the order a scan of every pair would
    give them."""
    every = [(ns, p) for ns in sorted(pools) for p in pools[ns]]
    pairs = sorted(_touching(every))
    return tuple(e for i, j in pairs for e in _pair(every[i], every[j]))


def _touching(every: Sequence[tuple[str, IPPool]]) -> set[tuple[int, int]]:
    """(i, j), i < j, for pools of different namespaces with ranges that share an address: the
    ranges sorted by first address, each compared only with the ones still open when it starts
    (a heap by last address), so a fleet of n ranges costs O(n log n) plus the pairs found,
    not a comparison of every pair (resync runs it on every tick)."""
    spans = sorted(
        (span.version, span.first, span.last, index)
        for index, (_, pool) in enumerate(every)
        for entry in pool.spec.pools
        if (span := entry_span(entry)) is not None
    )
    found: set[tuple[int, int]] = set()
    open_: list[tuple[int, int, int]] = []  # (version, last, pool index), a min-heap
    for version, first, last, index in spans:
        while open_ and (open_[0][0], open_[0][1]) < (version, first):
            heapq.heappop(open_)  # ended before this range starts (or of the other family)
        for _, _, other in open_:
            if every[other][0] != every[index][0]:
                found.add((min(index, other), max(index, other)))
        heapq.heappush(open_, (version, last, index))
    return found


def _pair(a: tuple[str, IPPool], b: tuple[str, IPPool]) -> Iterator[RecordEvent]:
    where = overlap_text(a[1], b[1])
    if where is None:
        return
    for mine, other in ((a, b), (b, a)):
        message = (
            f"IPPool {mine[0]}/{mine[1].metadata.name} overlaps IPPool "
            f"{other[0]}/{other[1].metadata.name} at {where}: IPAM allocates from each pool "
            "alone, so one address may go to a host of each; fine only if the two "
            "namespaces' networks are separate, else make the ranges disjoint"
        )
        yield RecordEvent(_ref(mine), Reason.POOLS_OVERLAP, message)


def _ref(found: tuple[str, IPPool]) -> HostRef:
    """The pool as the object an Event is about."""
    meta = found[1].metadata
    return HostRef(found[0], meta.name, meta.uid or "", POOL_API, "IPPool")
