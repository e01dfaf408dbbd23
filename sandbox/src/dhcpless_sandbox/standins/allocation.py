"""IPAM's allocation algorithm (metal3.md §d), pure: which address a claim gets, or why not.

Exists apart from the reconcile loop so it can be table-tested against upstream's
`allocateAddress` without an API server: a requested address (the `ipAddress` annotation) or a
pre-allocation must lie in some entry (and a requested one must be free); otherwise a free
candidate of the first entry that has one: the first (`sequential`), or the first at or after a
random offset, wrapping around (`random`; ip-address-manager `ipam/ippool_manager.go`
`selectIPFromPool`, `rand.IntN(size)`; the caller passes a seeded `pick`). The error texts are
upstream's, verbatim, because they end up in `IPClaim.status.errorMessage`.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Set
from dataclasses import dataclass

from dhcpless_sandbox.standins.ip_ranges import candidates, entry_range
from dhcpless_sandbox.standins.ipam_spec import (
    IP,
    AllocationStrategy,
    PoolEntry,
    PoolSpec,
    parse_ip,
)

Pick = Callable[[int], int]
"""A random index below its argument (`random.Random(seed).randrange`)."""

RANDOM_SCAN_LIMIT = 1 << 16
"""Candidates of one entry a random pick considers (the sandbox's pools are far smaller)."""

REQUESTED_IP_ANNOTATION = "ipAddress"
"""IPClaim annotation asking for one specific address (IPAM >= v1.10)."""


@dataclass(frozen=True)
class Allocation:
    """What an IPAddress object records for a claim."""

    address: str
    prefix: int
    gateway: str | None
    dns_servers: tuple[str, ...]


class AllocationFailed(Exception):
    """Allocation is impossible; the message is what IPAM writes to `status.errorMessage`."""


def allocate(
    spec: PoolSpec,
    claim: str,
    requested: str | None,
    in_use: Set[IP],
    pick: Pick | None = None,
    cursors: dict[int, IP] | None = None,
) -> Allocation:
    """Pick the address for `claim` exactly as IPAM's `allocateAddress` does.

    `in_use` holds every allocated address of the pool plus every pre-allocated one.
    `cursors` (sequential pools): by entry index, the address a scan may start from, every
    candidate before it being in use; the caller keeps it while `in_use` only grows (one
    reconcile) and clears it when an address is freed. Starting there gives the address a scan
    from the entry's start gives, without walking the pool's whole allocated prefix each time
    (a 5,000-host batch spent a tenth of the sandbox's time walking it: issue 28).
    """
    requested_ip = parse_ip(requested)
    if requested and requested_ip is None:
        raise AllocationFailed(
            f'Invalid ipAddress annotation "{requested}": not a valid IP address'
        )
    pre = spec.pre_allocations.get(claim)
    pre_ip = parse_ip(pre)
    if requested_ip is not None and pre is not None and requested_ip != pre_ip:
        raise AllocationFailed("PreAllocation and requested ip address are conflicting")
    requested_seen = False
    for index, entry in enumerate(spec.pools):
        bounds = entry_range(entry)
        if pre is not None or requested_ip is not None:
            wanted = requested_ip if requested_ip is not None else pre_ip
            found = bounds is not None and wanted is not None and bounds.contains(wanted)
            requested_seen = requested_seen or (found and requested_ip is not None)
            if found and wanted is not None and (pre is not None or wanted not in in_use):
                return _allocation(spec, entry, wanted)
            continue
        start = None if cursors is None else cursors.get(index)
        free = next((ip for ip in _scan(spec, entry, pick, start) if ip not in in_use), None)
        if free is not None:
            if cursors is not None and not _random(spec, pick):
                cursors[index] = free
            return _allocation(spec, entry, free)
    if requested_seen:
        raise AllocationFailed("Requested IP not available")
    if pre is not None:
        raise AllocationFailed("Pre-allocated IP out of bounds")  # `ipam/ippool_manager.go`
    raise AllocationFailed("Exhausted IP Pools")


def _random(spec: PoolSpec, pick: Pick | None) -> bool:
    return spec.allocation_strategy is AllocationStrategy.RANDOM and pick is not None


def _scan(spec: PoolSpec, entry: PoolEntry, pick: Pick | None, begin: IP | None) -> Iterator[IP]:
    """An entry's candidates in the order the pool's strategy scans them (sequential: from
    `begin`, when given, every earlier candidate being in use)."""
    if pick is None or not _random(spec, pick):
        return candidates(entry, begin)
    found = list(itertools.islice(candidates(entry), RANDOM_SCAN_LIMIT))
    start = pick(len(found)) if found else 0
    return iter(found[start:] + found[:start])


def _allocation(spec: PoolSpec, entry: PoolEntry, ip: IP) -> Allocation:
    return Allocation(
        address=str(ip),
        prefix=entry.prefix or spec.prefix,
        gateway=entry.gateway if entry.gateway is not None else spec.gateway,
        dns_servers=entry.dns_servers or spec.dns_servers,
    )


def address_name(name_prefix: str, address: str) -> str:
    """IPAddress object name: `<namePrefix>-<ip with . and : as ->`, trailing `-` trimmed."""
    return f"{name_prefix}-{address.replace(':', '-').replace('.', '-')}".rstrip("-")
