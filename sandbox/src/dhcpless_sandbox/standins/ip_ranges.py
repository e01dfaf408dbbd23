"""Which addresses one `spec.pools[]` entry may hand out, in IPAM's order.

Exists apart from `allocation` because the range rules are their own small contract: an entry
is `start`..`end` (open-ended without `end`), optionally confined to `subnet`, or a bare CIDR
whose candidates start at its IP + 1. Entries that mix families or put `start` outside
`subnet` are unusable and yield nothing, as upstream.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterator
from dataclasses import dataclass

from dhcpless_sandbox.standins.ipam_spec import IP, Network, PoolEntry


@dataclass(frozen=True)
class Range:
    """First address, optional last address, optional enclosing network."""

    first: IP
    last: IP | None
    network: Network | None

    def contains(self, ip: IP) -> bool:
        return (
            ip.version == self.first.version
            and int(ip) >= int(self.first)
            and (self.last is None or int(ip) <= int(self.last))
            and (self.network is None or ip in self.network)
        )


def entry_range(entry: PoolEntry) -> Range | None:
    """The candidate range of an entry: `start`..`end` in `subnet`, or the CIDR's IP + 1 on."""
    try:
        if entry.start is not None:
            first = ipaddress.ip_address(entry.start)
            last = ipaddress.ip_address(entry.end) if entry.end else None
            network = ipaddress.ip_network(entry.subnet, strict=False) if entry.subnet else None
        elif entry.subnet is not None:
            interface = ipaddress.ip_interface(entry.subnet)
            first, last, network = interface.ip + 1, None, interface.network
        else:
            return None
    except ValueError:
        return None
    if (last is not None and last.version != first.version) or (
        network is not None and first not in network
    ):
        return None
    return Range(first, last, network)


def candidates(entry: PoolEntry, start: IP | None = None) -> Iterator[IP]:
    """Every address an entry can hand out, in IPAM's sequential order (from `start`, when
    it is one of them)."""
    bounds = entry_range(entry)
    ip = bounds.first if bounds else None
    if bounds is not None and start is not None and bounds.contains(start):
        ip = start
    while bounds is not None and ip is not None and bounds.contains(ip):
        yield ip
        try:
            ip = ip + 1
        except ValueError:  # ran off the end of the address family
            ip = None
