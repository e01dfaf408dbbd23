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

from collections.abc import Iterator, Mapping, Sequence
from itertools import combinations

from dhcpless import keys
from dhcpless.chain.actions import RecordEvent
from dhcpless.models import IPPool
from dhcpless.reasons import Reason
from dhcpless.refs import HostRef
from dhcpless.render.validate_pools import overlap_text

POOL_API = f"{keys.IPAM_GROUP}/{keys.IPAM_VERSION}"


def across(pools: Mapping[str, Sequence[IPPool]]) -> tuple[RecordEvent, ...]:
    """Pure: the Warnings for pools of different namespaces (`pools`: by namespace) that can
    hand out the same addresses; pools of one namespace are the pool rule's."""
    every = [(ns, p) for ns in sorted(pools) for p in pools[ns]]
    return tuple(e for a, b in combinations(every, 2) if a[0] != b[0] for e in _pair(a, b))


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
