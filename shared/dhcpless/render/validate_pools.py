"""Pool rule: the pools a host draws from must not hand out addresses another pool can.

Two IPPools with overlapping ranges give two hosts the same IP, and IPAM cannot see it
(each pool only knows its own allocations). The ranges are the addresses IPAM can
allocate from each `spec.pools[]` entry (ip-address-manager's GetIPAddress):

* `start` (optionally `end`, optionally `subnet`): `start` .. `end`, clipped to `subnet`;
  with neither bound, up to the family's last address;
* `subnet` only: the address written in the CIDR plus one .. the subnet's last address;
* neither: nothing (IPAM refuses such an entry).

An entry whose `start`, `end` or `subnet` cannot be read is reported, since neither IPAM
nor this check can tell what it covers. Each referenced pool is compared with the other
referenced pools and with `other_pools`; a pool is never compared with itself (same
namespace and name).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from dhcpless.keys import ValidationRule
from dhcpless.models.ipam import IPPool, PoolEntry
from dhcpless.render.ipnet import parse_ip
from dhcpless.render.problem import Problem

_RULE = ValidationRule.POOL_OVERLAP


@dataclass(frozen=True, slots=True)
class Span:
    """An inclusive range of addresses of one family, as integers."""

    version: int
    first: int
    last: int

    def overlap(self, other: Span) -> Span | None:
        """The common part of two spans, or None."""
        first, last = max(self.first, other.first), min(self.last, other.last)
        if self.version != other.version or first > last:
            return None
        return Span(self.version, first, last)

    def __str__(self) -> str:
        make = ipaddress.IPv4Address if self.version == 4 else ipaddress.IPv6Address
        low, high = make(self.first), make(self.last)
        return str(low) if low == high else f"{low}-{high}"


def _top(version: int) -> int:
    return (1 << (32 if version == 4 else 128)) - 1


def _subnet(text: str) -> ipaddress.IPv4Interface | ipaddress.IPv6Interface | None:
    try:
        return ipaddress.ip_interface(text)
    except ValueError:
        return None


def entry_span(entry: PoolEntry) -> Span | None:
    """The addresses IPAM can allocate from one entry; None when there are none."""
    subnet = None if entry.subnet is None else _subnet(entry.subnet)
    if entry.start is not None:
        start = parse_ip(entry.start)
        if start is None:
            return None
        end = None if entry.end is None else parse_ip(entry.end, start.version)
        last = int(end) if end is not None else _top(start.version)
        span = Span(start.version, int(start), last)
    elif subnet is not None:
        net = subnet.network
        span = Span(net.version, int(subnet.ip) + 1, int(net.broadcast_address))
    else:
        return None
    if subnet is None:
        return span if span.first <= span.last else None
    net = subnet.network
    return span.overlap(Span(net.version, int(net.network_address), int(net.broadcast_address)))


def _unreadable(entry: PoolEntry) -> str | None:
    for key, value in (("start", entry.start), ("end", entry.end)):
        if value is not None and parse_ip(value) is None:
            return f'{key} "{value}" is not an IP address'
    if entry.subnet is not None and _subnet(entry.subnet) is None:
        return f'subnet "{entry.subnet}" is not a CIDR'
    return None


def _label(pool: IPPool) -> str:
    return f'IPPool "{pool.metadata.namespace or "default"}/{pool.metadata.name}"'


def _identity(pool: IPPool) -> tuple[str, str]:
    return (pool.metadata.namespace or "default", pool.metadata.name)


def _spans(pool: IPPool) -> list[Span]:
    return [span for entry in pool.spec.pools if (span := entry_span(entry)) is not None]


def overlap_text(pool: IPPool, other: IPPool) -> str | None:
    """Pure: the addresses both pools can hand out ("a-b, c"), or None when they share none."""
    common = [c for a in _spans(pool) for b in _spans(other) if (c := a.overlap(b)) is not None]
    return ", ".join(str(span) for span in common) if common else None


def _pair_problem(pool: IPPool, other: IPPool) -> Problem | None:
    where = overlap_text(pool, other)
    if where is None:
        return None
    return Problem(_RULE, f"{_label(pool)} overlaps {_label(other)} at {where}")


def _pairs(pools: Sequence[IPPool], others: Sequence[IPPool]) -> Iterator[tuple[IPPool, IPPool]]:
    mine = {_identity(pool) for pool in pools}
    for index, pool in enumerate(pools):
        yield from ((pool, other) for other in pools[index + 1 :])
        yield from ((pool, other) for other in others if _identity(other) not in mine)


def pool_problems(pools: Sequence[IPPool], other_pools: Sequence[IPPool]) -> Iterator[Problem]:
    """POOL_OVERLAP: unreadable entries of referenced pools, then overlapping pairs."""
    for pool in pools:
        for index, entry in enumerate(pool.spec.pools):
            if (defect := _unreadable(entry)) is not None:
                yield Problem(_RULE, f"{_label(pool)} spec.pools[{index}]: {defect}")
    for pool, other in _pairs(pools, other_pools):
        if _identity(pool) != _identity(other) and (found := _pair_problem(pool, other)):
            yield found
