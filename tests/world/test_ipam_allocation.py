"""IPAM allocation, table-driven against ip-address-manager's `allocateAddress` rules.

Covers: sequential order across entries, start/end/subnet bounds, subnet-only entries
starting at the CIDR's own address + 1, per-entry prefix/gateway/DNS overrides,
preAllocations (reserved for everyone else, honoured even for an in-use IP), the `ipAddress`
annotation, every error message, IPv6 canonical form and IPAddress naming.
"""

from __future__ import annotations

import ipaddress
from typing import Any

import pytest

from dhcpless_sandbox.standins.allocation import (
    Allocation,
    AllocationFailed,
    address_name,
    allocate,
)
from dhcpless_sandbox.standins.ip_ranges import candidates
from dhcpless_sandbox.standins.ipam_spec import IP, PoolSpec

V4: dict[str, Any] = {
    "namePrefix": "p",
    "prefix": 24,
    "gateway": "192.168.0.1",
    "dnsServers": ["8.8.8.8"],
    "pools": [{"start": "192.168.0.10", "end": "192.168.0.11"}],
}


def pool(**overrides: Any) -> PoolSpec:
    return PoolSpec.model_validate({**V4, **overrides})


def used(*ips: str) -> set[IP]:
    return {ipaddress.ip_address(ip) for ip in ips}


@pytest.mark.parametrize(
    ("spec", "claim", "requested", "in_use", "address"),
    [
        pytest.param(pool(), "c", None, set(), "192.168.0.10", id="first-free"),
        pytest.param(pool(), "c", None, used("192.168.0.10"), "192.168.0.11", id="skips-used"),
        pytest.param(
            pool(pools=[{"start": "192.168.0.10", "end": "192.168.0.10"}, {"start": "10.0.0.5"}]),
            "c",
            None,
            used("192.168.0.10"),
            "10.0.0.5",
            id="next-entry-in-declaration-order",
        ),
        pytest.param(
            pool(pools=[{"subnet": "192.168.1.10/24"}]),
            "c",
            None,
            set(),
            "192.168.1.11",
            id="subnet-only-starts-at-written-ip-plus-one",
        ),
        pytest.param(
            pool(pools=[{"subnet": "192.168.0.0/30"}]),
            "c",
            None,
            used("192.168.0.1", "192.168.0.2"),
            "192.168.0.3",
            id="subnet-last-address-is-a-candidate",
        ),
        pytest.param(
            pool(pools=[{"start": "192.168.0.250", "subnet": "192.168.0.0/24"}]),
            "c",
            None,
            used(*(f"192.168.0.{i}" for i in range(250, 255))),
            "192.168.0.255",
            id="start-bounded-by-subnet",
        ),
        pytest.param(
            pool(preAllocations={"other": "192.168.0.10"}),
            "c",
            None,
            used("192.168.0.10"),
            "192.168.0.11",
            id="preallocation-reserved-for-others",
        ),
        pytest.param(
            pool(preAllocations={"c": "192.168.0.11"}),
            "c",
            None,
            used("192.168.0.11"),
            "192.168.0.11",
            id="preallocation-honoured",
        ),
        pytest.param(pool(), "c", "192.168.0.11", set(), "192.168.0.11", id="requested-ip"),
        pytest.param(
            pool(preAllocations={"c": "192.168.0.11"}),
            "c",
            "192.168.0.11",
            used("192.168.0.11"),
            "192.168.0.11",
            id="requested-equals-preallocation",
        ),
        pytest.param(
            pool(pools=[{"start": "2001:db8::0005", "end": "2001:db8::9"}], prefix=64),
            "c",
            None,
            set(),
            "2001:db8::5",
            id="ipv6-canonical",
        ),
    ],
)
def test_allocates(
    spec: PoolSpec, claim: str, requested: str | None, in_use: set[IP], address: str
) -> None:
    assert allocate(spec, claim, requested, in_use).address == address


@pytest.mark.parametrize(
    ("spec", "claim", "requested", "in_use", "message"),
    [
        pytest.param(
            pool(),
            "c",
            None,
            used("192.168.0.10", "192.168.0.11"),
            "Exhausted IP Pools",
            id="exhausted",
        ),
        pytest.param(pool(pools=[]), "c", None, set(), "Exhausted IP Pools", id="no-entries"),
        pytest.param(
            pool(preAllocations={"c": "10.9.9.9"}),
            "c",
            None,
            set(),
            "Pre-allocated IP out of bounds",
            id="preallocation-out-of-range",
        ),
        pytest.param(
            pool(),
            "c",
            "192.168.0.10",
            used("192.168.0.10"),
            "Requested IP not available",
            id="requested-in-use",
        ),
        pytest.param(
            pool(), "c", "10.1.1.1", set(), "Exhausted IP Pools", id="requested-outside-every-entry"
        ),
        pytest.param(
            pool(),
            "c",
            "not-an-ip",
            set(),
            'Invalid ipAddress annotation "not-an-ip": not a valid IP address',
            id="requested-invalid",
        ),
        pytest.param(
            pool(preAllocations={"c": "192.168.0.10"}),
            "c",
            "192.168.0.11",
            set(),
            "PreAllocation and requested ip address are conflicting",
            id="conflict",
        ),
    ],
)
def test_refuses(
    spec: PoolSpec, claim: str, requested: str | None, in_use: set[IP], message: str
) -> None:
    with pytest.raises(AllocationFailed) as failure:
        allocate(spec, claim, requested, in_use)
    assert str(failure.value) == message


@pytest.mark.parametrize(
    ("entry", "expected"),
    [
        pytest.param(
            {
                "start": "192.168.0.10",
                "prefix": 26,
                "gateway": "192.168.0.62",
                "dnsServers": ["1.1.1.1"],
            },
            Allocation("192.168.0.10", 26, "192.168.0.62", ("1.1.1.1",)),
            id="entry-overrides",
        ),
        pytest.param(
            {"start": "192.168.0.10"},
            Allocation("192.168.0.10", 24, "192.168.0.1", ("8.8.8.8",)),
            id="pool-defaults",
        ),
    ],
)
def test_prefix_gateway_dns(entry: dict[str, Any], expected: Allocation) -> None:
    assert allocate(pool(pools=[entry]), "c", None, set()) == expected


@pytest.mark.parametrize(
    ("entry", "expected"),
    [
        pytest.param(
            {"subnet": "192.168.0.0/30"}, ["192.168.0.1", "192.168.0.2", "192.168.0.3"], id="subnet"
        ),
        pytest.param(
            {"start": "10.0.0.254", "end": "10.0.1.1"},
            ["10.0.0.254", "10.0.0.255", "10.0.1.0", "10.0.1.1"],
            id="start-end",
        ),
        pytest.param(
            {"start": "255.255.255.254"},
            ["255.255.255.254", "255.255.255.255"],
            id="stops-at-end-of-family",
        ),
        pytest.param({"end": "10.0.0.1"}, [], id="neither-start-nor-subnet"),
        pytest.param({"start": "10.0.0.1", "subnet": "192.168.0.0/24"}, [], id="start-outside"),
    ],
)
def test_candidates(entry: dict[str, Any], expected: list[str]) -> None:
    spec = pool(pools=[entry])
    assert [str(ip) for ip in candidates(spec.pools[0])] == expected


@pytest.mark.parametrize(
    ("prefix", "address", "name"),
    [
        pytest.param("pool1", "192.168.0.13", "pool1-192-168-0-13", id="ipv4"),
        pytest.param("p", "2001:db8::1", "p-2001-db8--1", id="ipv6"),
        pytest.param("p", "2001:db8::", "p-2001-db8", id="trailing-dash-trimmed"),
    ],
)
def test_address_name(prefix: str, address: str, name: str) -> None:
    assert address_name(prefix, address) == name


@pytest.mark.parametrize(
    "freed",
    [pytest.param(None, id="only-taken"), pytest.param("192.168.0.11", id="one-freed")],
)
def test_a_cursor_gives_what_a_scan_from_the_start_gives(freed: str | None) -> None:
    """The IPAM stand-in keeps a scan's position within one reconcile (`cursors`, cleared
    when an address is freed): the addresses it hands out are a full scan's."""
    spec = pool(pools=[{"start": "192.168.0.10", "end": "192.168.0.13"}, {"start": "10.0.0.5"}])
    scanned: set[IP] = set()
    cursored: set[IP] = set()
    cursors: dict[int, IP] = {}
    for index in range(8):
        if freed is not None and index == 4:
            scanned.discard(ipaddress.ip_address(freed))
            cursored.discard(ipaddress.ip_address(freed))
            cursors.clear()
        full = allocate(spec, f"c{index}", None, scanned)
        fast = allocate(spec, f"c{index}", None, cursored, cursors=cursors)
        assert fast == full
        scanned.add(ipaddress.ip_address(full.address))
        cursored.add(ipaddress.ip_address(fast.address))
    assert cursors  # the scan's position was kept
