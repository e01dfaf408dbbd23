"""Pre-unpause validation: one table per rule, each with passing and failing rows.

Every row builds a small rendered OpenStack document (the shape CAPM3 renders) and
asserts the exact messages of one rule, so a row fails if the rule misses a problem,
reports a false one, or words it differently. Further tests: the committed render
fixtures are clean, the rules run together in a fixed order, malformed documents give
one DOCUMENT problem without quoting data, and `validate_for_host` renders first.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from dhcpless.keys import RamdiskProfile, ValidationRule
from dhcpless.models import BareMetalHost, IPPool
from dhcpless.models.netdata import NetworkData
from dhcpless.render import Address
from dhcpless.render.validate import Problem, validate_for_host, validate_network_data

from .hosts import make_host

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "render"
MAC0, MAC1, MAC2 = "52:54:00:00:00:01", "52:54:00:00:00:02", "52:54:00:00:00:03"
HOST = make_host(boot_mac=MAC0)
Doc = dict[str, Any]


def phy(link_id: str, mac: str | None = MAC0, **extra: Any) -> Doc:
    link: Doc = {"type": "phy", "id": link_id, "mtu": 1500, **extra}
    if mac is not None:
        link["ethernet_mac_address"] = mac
    return link


def bond(link_id: str, ports: list[str] | None, mac: str | None = MAC0) -> Doc:
    link: Doc = {"type": "bond", "id": link_id, "mtu": 1500, "bond_mode": "active-backup"}
    if mac is not None:
        link["ethernet_mac_address"] = mac
    return {**link, "bond_xmit_hash_policy": "", "bond_links": ports}


def vlan(link_id: str, parent: str, mac: str | None = None) -> Doc:
    link: Doc = {"type": "vlan", "id": link_id, "mtu": 1500}
    if mac is not None:
        link["vlan_mac_address"] = mac
    return {**link, "vlan_id": 10, "vlan_link": parent}


def route(network: str, netmask: str, gateway: str, dns: tuple[str, ...] = ()) -> Doc:
    services = [{"type": "dns", "address": a} for a in dns]
    return {"network": network, "netmask": netmask, "gateway": gateway, "services": services}


V4_DEFAULT = route("0.0.0.0", "0.0.0.0", "10.0.0.1")
V6_DEFAULT = route("::", "::", "fd00::1")
V6_MASK = "ffff:ffff:ffff:ffff::"


def static(
    kind: str, link: str, address: str, netmask: str, routes: list[Doc] | None = None
) -> Doc:
    return {
        "type": kind,
        "id": f"net-{link}-{kind}",
        "link": link,
        "ip_address": address,
        "netmask": netmask,
        "routes": routes if routes is not None else [],
        "network_id": f"net-{link}-{kind}",
    }


def v4(link: str = "eth0", address: str = "10.0.0.10", netmask: str = "255.255.255.0") -> Doc:
    return static("ipv4", link, address, netmask, [V4_DEFAULT])


def v6(link: str = "eth0", address: str = "fd00::10", netmask: str = V6_MASK) -> Doc:
    return static("ipv6", link, address, netmask, [V6_DEFAULT])


def dhcp(kind: str, link: str = "eth0", routes: list[Doc] | None = None) -> Doc:
    net_id = f"net-{link}-{kind}"
    return {"type": kind, "id": net_id, "link": link, "routes": routes or [], "network_id": net_id}


def doc(
    links: list[Doc] | None = None, networks: list[Doc] | None = None, dns: tuple[str, ...] = ()
) -> Doc:
    return {
        "links": links if links is not None else [phy("eth0")],
        "networks": networks if networks is not None else [v4()],
        "services": [{"type": "dns", "address": a} for a in dns],
    }


def messages(found: tuple[Problem, ...], rule: ValidationRule) -> list[str]:
    return [p.message for p in found if p.rule is rule]


def check(
    document: Doc, rule: ValidationRule, expected: list[str], host: BareMetalHost = HOST
) -> None:
    assert messages(validate_network_data(document, host), rule) == expected


# --- LINK_MAC ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("document", "expected"),
    [
        pytest.param(doc(), [], id="pass: NIC with colon MAC"),
        pytest.param(doc([phy("eth0", MAC0.upper())]), [], id="pass: upper-case MAC"),
        pytest.param(
            doc([phy("eth0"), vlan("v10", "eth0")], [v4("v10")]), [], id="pass: VLAN without MAC"
        ),
        pytest.param(
            doc([phy("eth0", None)]),
            ['link "eth0" (phy) has no ethernet_mac_address: glean matches NICs by MAC'],
            id="fail: NIC without MAC",
        ),
        pytest.param(
            doc([bond("bond0", ["eth0"], None), phy("eth0")], [v4("bond0")]),
            ['link "bond0" (bond) has no ethernet_mac_address: glean matches NICs by MAC'],
            id="fail: bond without MAC",
        ),
        pytest.param(
            doc([phy("eth0", "52-54-00-00-00-01")]),
            [
                "link \"eth0\" (phy): ethernet_mac_address uses '-' separators: "
                "glean compares it with the kernel's aa:bb:.. form"
            ],
            id="fail: dash-separated MAC",
        ),
        pytest.param(
            doc([phy("eth0", "52:54:00:00:01")]),
            ['link "eth0" (phy): ethernet_mac_address is not a MAC address'],
            id="fail: five octets",
        ),
        pytest.param(
            doc([phy("eth0", "01:00:5e:00:00:01")]),
            ['link "eth0" (phy): ethernet_mac_address is a multicast address, which no NIC has'],
            id="fail: multicast MAC",
        ),
        pytest.param(
            doc([phy("eth0", "00:00:00:00:00:00")]),
            ['link "eth0" (phy): ethernet_mac_address is all zeros'],
            id="fail: zero MAC",
        ),
        pytest.param(
            doc([phy("eth0"), vlan("v10", "eth0", "zz:54:00:00:00:01")], [v4("v10")]),
            ['link "v10" (vlan): vlan_mac_address is not a MAC address'],
            id="fail: malformed VLAN MAC",
        ),
    ],
)
def test_link_mac(document: Doc, expected: list[str]) -> None:
    check(document, ValidationRule.LINK_MAC, expected)


# --- BOOT_MAC ---------------------------------------------------------------------------
TWO_NICS = [phy("eth0", MAC0), phy("eth1", MAC1)]
BONDED = [bond("bond0", ["eth0", "eth1"], MAC0), *TWO_NICS]
NO_STATIC = "carries no static network (directly or via bond/VLAN): the ramdisk cannot reach Ironic"
NO_NETWORK = "carries no network (directly or via bond/VLAN): the ramdisk cannot reach Ironic"


@pytest.mark.parametrize(
    ("document", "host", "expected"),
    [
        pytest.param(doc(), HOST, [], id="pass: static IPv4 on the boot NIC"),
        pytest.param(
            doc(networks=[v6()]),
            make_host(boot_mac="52-54-00-00-00-01".upper()),
            [],
            id="pass: IPv6 only, boot MAC upper case with dashes",
        ),
        pytest.param(
            doc([phy("eth0"), vlan("v10", "eth0")], [v4("v10")]),
            HOST,
            [],
            id="pass: VLAN on the boot NIC",
        ),
        pytest.param(
            doc([*BONDED, vlan("v10", "bond0")], [v4("v10")]),
            make_host(boot_mac=MAC1),
            [],
            id="pass: VLAN on a bond of the boot NIC",
        ),
        pytest.param(
            doc(BONDED, [v4("bond0")]),
            HOST,
            [],
            id="pass: bond of the boot NIC",
        ),
        pytest.param(
            doc(),
            make_host(),
            ["host has no spec.bootMACAddress: the boot NIC is unknown"],
            id="fail: host without bootMACAddress",
        ),
        pytest.param(
            doc(),
            make_host(boot_mac="not-a-mac"),
            ['host bootMACAddress "not-a-mac" is not a MAC address'],
            id="fail: malformed bootMACAddress",
        ),
        pytest.param(
            doc(),
            make_host(boot_mac=MAC2),
            [f"no NIC link has the boot MAC {MAC2}"],
            id="fail: no link has the boot MAC",
        ),
        pytest.param(
            doc(networks=[dhcp("ipv4_dhcp"), dhcp("ipv6_slaac")]),
            HOST,
            [],
            id="pass: DHCP/SLAAC-only document, DHCP and SLAAC on the boot NIC",
        ),
        pytest.param(
            doc([phy("eth0"), vlan("v10", "eth0")], [dhcp("ipv4_dhcp", "v10")]),
            HOST,
            [],
            id="pass: DHCP-only document, DHCP on a VLAN of the boot NIC",
        ),
        pytest.param(
            doc(TWO_NICS, [dhcp("ipv4_dhcp", "eth1")]),
            HOST,
            [f'boot NIC link "eth0" {NO_NETWORK}'],
            id="fail: DHCP-only document, DHCP on the other NIC only",
        ),
        pytest.param(
            doc(TWO_NICS, [dhcp("ipv4_dhcp", "eth0"), v4("eth1")]),
            HOST,
            [f'boot NIC link "eth0" {NO_STATIC}'],
            id="fail: static network elsewhere, only DHCP on the boot NIC",
        ),
        pytest.param(
            doc(TWO_NICS, [v4("eth1")]),
            HOST,
            [f'boot NIC link "eth0" {NO_STATIC}'],
            id="fail: static network on the other NIC",
        ),
        pytest.param(
            doc([*TWO_NICS, vlan("v10", "eth1")], [v4("v10")]),
            HOST,
            [f'boot NIC link "eth0" {NO_STATIC}'],
            id="fail: VLAN on the other NIC",
        ),
    ],
)
def test_boot_mac(document: Doc, host: BareMetalHost, expected: list[str]) -> None:
    check(document, ValidationRule.BOOT_MAC, expected, host)


# --- LINK_REFERENCE and LINK_CYCLE ------------------------------------------------------
@pytest.mark.parametrize(
    ("document", "rule", "expected"),
    [
        pytest.param(
            doc([*BONDED, vlan("v10", "bond0")], [v4("v10")]),
            ValidationRule.LINK_REFERENCE,
            [],
            id="pass: VLAN on bond on NICs",
        ),
        pytest.param(
            doc([phy("eth0"), vlan("v10", "eth9")], [v4()]),
            ValidationRule.LINK_REFERENCE,
            ['vlan "v10" names link "eth9", which does not exist'],
            id="fail: dangling vlan_link",
        ),
        pytest.param(
            doc([phy("eth0", name="mgmt0"), vlan("v10", "mgmt0")], [v4()]),
            ValidationRule.LINK_REFERENCE,
            [
                'vlan "v10" names link "mgmt0", which matches a link name, '
                "but consumers resolve links by id"
            ],
            id="fail: vlan_link names a link by name",
        ),
        pytest.param(
            doc([bond("bond0", ["eth0", "eth7"]), phy("eth0")], [v4("bond0")]),
            ValidationRule.LINK_REFERENCE,
            ['bond "bond0" names link "eth7", which does not exist'],
            id="fail: dangling bond port",
        ),
        pytest.param(
            doc([bond("bond0", None), phy("eth0")], [v4()]),
            ValidationRule.LINK_REFERENCE,
            ['bond "bond0" has no bond_links: a bond needs at least one port'],
            id="fail: bond_links null",
        ),
        pytest.param(
            doc([bond("bond0", ["v10"]), phy("eth0"), vlan("v10", "eth0")], [v4()]),
            ValidationRule.LINK_REFERENCE,
            ['bond "bond0" is built on vlan "v10"; glean needs ethernet'],
            id="fail: bond port is a VLAN",
        ),
        pytest.param(
            doc(networks=[v4("eth3")]),
            ValidationRule.LINK_REFERENCE,
            ['network "net-eth3-ipv4" names link "eth3", which does not exist'],
            id="fail: network on a missing link",
        ),
        pytest.param(
            doc([phy("eth0"), phy("eth0", MAC1)]),
            ValidationRule.LINK_REFERENCE,
            ['two links have id "eth0"'],
            id="fail: duplicate link id",
        ),
        pytest.param(
            doc([*BONDED, vlan("v10", "bond0")], [v4("v10")]),
            ValidationRule.LINK_CYCLE,
            [],
            id="pass: no cycle",
        ),
        pytest.param(
            doc([phy("eth0"), vlan("v10", "v20"), vlan("v20", "v10")]),
            ValidationRule.LINK_CYCLE,
            ['links refer to each other in a cycle: "v10" -> "v20" -> "v10"'],
            id="fail: two VLANs on each other, reported once",
        ),
        pytest.param(
            doc([bond("bond0", ["eth0", "bond0"]), phy("eth0")]),
            ValidationRule.LINK_CYCLE,
            ['links refer to each other in a cycle: "bond0" -> "bond0"'],
            id="fail: bond in its own ports",
        ),
    ],
)
def test_link_references(document: Doc, rule: ValidationRule, expected: list[str]) -> None:
    check(document, rule, expected)


def test_long_vlan_chain_does_not_recurse() -> None:
    chain = [vlan(f"v{i}", f"v{i + 1}") for i in range(3000)]
    found = validate_network_data(doc([phy("eth0"), *chain, vlan("v3000", "v0")]), HOST)
    assert len(messages(found, ValidationRule.LINK_CYCLE)) == 1


# --- ADDRESS ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("network", "expected"),
    [
        pytest.param(v4(), [], id="pass: host in /24"),
        pytest.param(v4(address="10.0.0.0", netmask="255.255.255.254"), [], id="pass: /31 low"),
        pytest.param(v4(address="10.0.0.1", netmask="255.255.255.254"), [], id="pass: /31 high"),
        pytest.param(static("ipv4", "eth0", "10.0.0.10", "255.255.255.255"), [], id="pass: /32"),
        pytest.param(v6(), [], id="pass: IPv6 /64"),
        pytest.param(
            static("ipv6", "eth0", "fd00::", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:fffe"),
            [],
            id="pass: IPv6 /127 all-zero host part",
        ),
        pytest.param(
            v4(address="10.0.0.300"),
            ['network "net-eth0-ipv4": ip_address "10.0.0.300" is not an IPv4 address'],
            id="fail: not an address",
        ),
        pytest.param(
            v4(address="fd00::10"),
            ['network "net-eth0-ipv4": ip_address "fd00::10" is not an IPv4 address'],
            id="fail: IPv6 address on an ipv4 network",
        ),
        pytest.param(
            v4(netmask=""),
            [
                'network "net-eth0-ipv4": ip_address 10.0.0.10 has no netmask '
                "(the IPAddress has no prefix)"
            ],
            id="fail: no prefix",
        ),
        pytest.param(
            v4(netmask="255.0.255.0"),
            ['network "net-eth0-ipv4": netmask "255.0.255.0" is not an IPv4 netmask'],
            id="fail: non-contiguous netmask",
        ),
        pytest.param(
            v4(netmask="0.0.0.0"),
            [
                'network "net-eth0-ipv4": netmask 0.0.0.0 (prefix 0) leaves 10.0.0.10 '
                "without a subnet"
            ],
            id="fail: prefix 0",
        ),
        pytest.param(
            v4(address="10.0.0.0"),
            ['network "net-eth0-ipv4": 10.0.0.0/24 is the network address of 10.0.0.0/24'],
            id="fail: IPv4 network address",
        ),
        pytest.param(
            v4(address="10.0.0.3", netmask="255.255.255.252"),
            ['network "net-eth0-ipv4": 10.0.0.3/30 is the broadcast address of 10.0.0.0/30'],
            id="fail: IPv4 broadcast address in /30",
        ),
        pytest.param(
            v6(address="fd00::"),
            [
                'network "net-eth0-ipv6": fd00::/64 is the Subnet-Router anycast address '
                "of fd00::/64"
            ],
            id="fail: IPv6 subnet-router anycast",
        ),
        pytest.param(
            v4(address="127.0.0.5", netmask="255.0.0.0"),
            ['network "net-eth0-ipv4": 127.0.0.5/8 is not a host address'],
            id="fail: loopback",
        ),
    ],
)
def test_address(network: Doc, expected: list[str]) -> None:
    check(doc(networks=[network]), ValidationRule.ADDRESS, expected)


# --- ROUTE ------------------------------------------------------------------------------
def _v4_routes(*routes: Doc) -> Doc:
    return static("ipv4", "eth0", "10.0.0.10", "255.255.255.0", list(routes))


@pytest.mark.parametrize(
    ("network", "expected"),
    [
        pytest.param(v4(), [], id="pass: default gateway on-link"),
        pytest.param(
            _v4_routes(route("192.168.0.0", "255.255.0.0", "10.0.0.254")),
            [],
            id="pass: specific route, gateway on-link",
        ),
        pytest.param(v6(), [], id="pass: IPv6 default gateway on-link"),
        pytest.param(
            dhcp("ipv4_dhcp", routes=[route("192.168.0.0", "255.255.0.0", "172.16.0.1")]),
            [],
            id="pass: DHCP network, gateway family only",
        ),
        pytest.param(
            _v4_routes(route("0.0.0.0", "0.0.0.0", "10.0.1.1")),
            [
                'network "net-eth0-ipv4": default route 0.0.0.0/0 gateway 10.0.1.1 '
                "is not on-link in 10.0.0.0/24"
            ],
            id="fail: default gateway off-link",
        ),
        pytest.param(
            _v4_routes(route("192.168.0.0", "255.255.0.0", "10.9.0.1")),
            [
                'network "net-eth0-ipv4": route 192.168.0.0/16 gateway 10.9.0.1 '
                "is not on-link in 10.0.0.0/24"
            ],
            id="fail: specific route gateway off-link",
        ),
        pytest.param(
            _v4_routes(route("0.0.0.0", "0.0.0.0", "10.0.0.10")),
            [
                'network "net-eth0-ipv4": default route 0.0.0.0/0 gateway 10.0.0.10 '
                "is not on-link in 10.0.0.0/24"
            ],
            id="fail: gateway is the host itself",
        ),
        pytest.param(
            _v4_routes(route("0.0.0.0", "0.0.0.0", "")),
            ['network "net-eth0-ipv4": default route 0.0.0.0/0 has no gateway'],
            id="fail: no gateway",
        ),
        pytest.param(
            static("ipv6", "eth0", "fd00::10", V6_MASK, [route("::", "::", "10.0.0.1")]),
            [
                'network "net-eth0-ipv6": default route ::/0 gateway "10.0.0.1" '
                "is not an IPv6 address"
            ],
            id="fail: IPv4 gateway on IPv6 route",
        ),
        pytest.param(
            _v4_routes(route("192.168.1.0", "255.255.0.0", "10.0.0.1")),
            ['network "net-eth0-ipv4": route 192.168.1.0/16 has host bits set'],
            id="fail: destination with host bits",
        ),
        pytest.param(
            _v4_routes(route("192.168.1.0", "255.0.255.0", "10.0.0.1")),
            ['network "net-eth0-ipv4": route 192.168.1.0/? is not an IPv4 network'],
            id="fail: destination netmask unreadable",
        ),
        pytest.param(
            dhcp("ipv6_slaac", routes=[route("::", "::", "fe80::zz")]),
            [
                'network "net-eth0-ipv6_slaac": default route ::/0 gateway "fe80::zz" '
                "is not an IPv6 address"
            ],
            id="fail: DHCP network, gateway not an address",
        ),
    ],
)
def test_route(network: Doc, expected: list[str]) -> None:
    check(doc(networks=[network]), ValidationRule.ROUTE, expected)


# --- DNS --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("dns", "route_dns", "expected"),
    [
        pytest.param(("8.8.8.8", "2001:4860:4860::8888"), ("10.0.0.53",), [], id="pass"),
        pytest.param(
            ("dns.example.com",),
            (),
            ['services: DNS server "dns.example.com" is not usable'],
            id="fail: host name",
        ),
        pytest.param(
            ("0.0.0.0", "ff02::1"),
            (),
            [
                'services: DNS server "0.0.0.0" is not usable',
                'services: DNS server "ff02::1" is not usable',
            ],
            id="fail: unspecified and multicast",
        ),
        pytest.param(
            (),
            ("10.0.0.",),
            ['network "net-eth0-ipv4" route 0.0.0.0: DNS server "10.0.0." is not usable'],
            id="fail: route DNS",
        ),
    ],
)
def test_dns(dns: tuple[str, ...], route_dns: tuple[str, ...], expected: list[str]) -> None:
    network = _v4_routes(route("0.0.0.0", "0.0.0.0", "10.0.0.1", route_dns))
    check(doc(networks=[network], dns=dns), ValidationRule.DNS, expected)


# --- POOL_OVERLAP -----------------------------------------------------------------------
def pool(name: str, *entries: Doc, namespace: str = "ns") -> IPPool:
    meta = {"name": name, "namespace": namespace}
    return IPPool.from_k8s({"metadata": meta, "spec": {"pools": list(entries)}})


A = pool("a", {"start": "10.0.0.10", "end": "10.0.0.20"})
A_V6 = pool("a6", {"subnet": "fd00::/64"})


@pytest.mark.parametrize(
    ("pools", "others", "expected"),
    [
        pytest.param(
            [A], [pool("b", {"start": "10.0.0.21", "end": "10.0.0.30"})], [], id="pass: adjacent"
        ),
        pytest.param([A], [A], [], id="pass: the pool itself among the others"),
        pytest.param([A], [pool("b", {"subnet": "fd00::/64"})], [], id="pass: other family"),
        pytest.param(
            [A],
            [pool("b", {"subnet": "10.0.0.20/24"})],
            [],
            id="pass: subnet-only entry starts after the written address",
        ),
        pytest.param(
            [A],
            [pool("b", {"start": "10.0.0.1", "subnet": "10.0.0.0/29"})],
            [],
            id="pass: start clipped to its subnet",
        ),
        pytest.param(
            [A],
            [pool("b", {"start": "10.0.0.15", "end": "10.0.0.40"})],
            ['IPPool "ns/a" overlaps IPPool "ns/b" at 10.0.0.15-10.0.0.20'],
            id="fail: start/end ranges overlap",
        ),
        pytest.param(
            [A],
            [pool("b", {"subnet": "10.0.0.19/24"})],
            ['IPPool "ns/a" overlaps IPPool "ns/b" at 10.0.0.20'],
            id="fail: subnet-only entry reaches one address",
        ),
        pytest.param(
            [A],
            [pool("b", {"start": "10.0.0.0"})],
            ['IPPool "ns/a" overlaps IPPool "ns/b" at 10.0.0.10-10.0.0.20'],
            id="fail: start without bounds",
        ),
        pytest.param(
            [A, A_V6],
            [],
            [],
            id="pass: two referenced pools of different families",
        ),
        pytest.param(
            [A_V6, pool("b6", {"start": "fd00::ffff", "end": "fd00::1:5"})],
            [A],
            ['IPPool "ns/a6" overlaps IPPool "ns/b6" at fd00::ffff-fd00::1:5'],
            id="fail: two referenced pools overlap each other",
        ),
        pytest.param(
            [A],
            [pool("b", {"subnet": "10.0.0.0/24"}, namespace="other")],
            ['IPPool "ns/a" overlaps IPPool "other/b" at 10.0.0.10-10.0.0.20'],
            id="fail: same range in another namespace's pool passed in",
        ),
        pytest.param(
            [pool("a", {"subnet": "10.0.0/24"}, {"start": "10.0.0.x"})],
            [],
            [
                'IPPool "ns/a" spec.pools[0]: subnet "10.0.0/24" is not a CIDR',
                'IPPool "ns/a" spec.pools[1]: start "10.0.0.x" is not an IP address',
            ],
            id="fail: unreadable entries",
        ),
    ],
)
def test_pool_overlap(pools: list[IPPool], others: list[IPPool], expected: list[str]) -> None:
    found = validate_network_data(doc(), HOST, pools, others)
    assert messages(found, ValidationRule.POOL_OVERLAP) == expected


# --- the whole document -----------------------------------------------------------------
def _fixture(folder: str) -> tuple[Doc, BareMetalHost]:
    path = FIXTURES / folder
    host = BareMetalHost.from_k8s(yaml.safe_load((path / "host.yaml").read_text()))
    return json.loads((path / "expected.json").read_text()), host


@pytest.mark.parametrize(
    ("folder", "profile"),
    [
        pytest.param("single-nic", RamdiskProfile.GLEAN_EL9, id="single-nic"),
        # a bond is for a ramdisk that applies nmstate: glean per NIC dies on it
        # (`test_validate_ramdisk`)
        pytest.param("bond-vlan", RamdiskProfile.NMSTATE, id="bond-vlan"),
    ],
)
def test_committed_render_fixtures_are_clean(folder: str, profile: RamdiskProfile) -> None:
    rendered, host = _fixture(folder)
    assert validate_network_data(rendered, host, profile=profile) == ()


def test_problems_come_in_rule_order() -> None:
    bad = doc(
        [phy("eth0", None), vlan("v1", "v1")],
        [v4(address="10.0.0.0", netmask="255.255.255.0")],
        dns=("nope",),
    )
    rules = [
        p.rule
        for p in validate_network_data(
            bad, make_host(), [A], [A_V6, pool("x", {"subnet": "10.0.0.0/8"})]
        )
    ]
    assert rules == [
        *[ValidationRule.IRONIC] * 3,  # NIC and VLAN without MAC, DNS not an address
        ValidationRule.LINK_MAC,
        ValidationRule.LINK_REFERENCE,
        ValidationRule.LINK_CYCLE,
        ValidationRule.BOOT_MAC,
        ValidationRule.ADDRESS,
        ValidationRule.DNS,
        ValidationRule.POOL_OVERLAP,
    ]


@pytest.mark.parametrize(
    ("document", "expected"),
    [
        pytest.param(
            {"links": [], "networks": [{"type": "ipv5", "id": "x", "link": "secret-ish"}]},
            "not OpenStack network data: field networks.0.type: Input should be",
            id="unknown network type",
        ),
        pytest.param(
            {"links": "52:54:00:00:00:01"},
            "not OpenStack network data: field links: Input should be a valid tuple",
            id="links not a list",
        ),
    ],
)
def test_malformed_document_is_one_problem_without_its_data(document: Doc, expected: str) -> None:
    found = validate_network_data(document, HOST)
    (problem,) = [p for p in found if p.rule is ValidationRule.DOCUMENT]
    assert problem.message.startswith(expected)
    assert {p.rule for p in found} == {ValidationRule.DOCUMENT, ValidationRule.IRONIC}
    assert not any("secret-ish" in p.message or "52:54" in p.message for p in found)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=12,
)
KEYS = st.sampled_from(["links", "networks", "services", "type", "id", "link", "routes"])


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(KEYS, JSON, max_size=4))
def test_any_input_gives_problems_not_exceptions(document: Doc) -> None:
    found = validate_network_data(document, HOST)
    assert all(isinstance(p, Problem) and p.message for p in found)


# --- validate_for_host ------------------------------------------------------------------
SINGLE = FIXTURES / "single-nic"


def _single_inputs() -> tuple[NetworkData, BareMetalHost, dict[str, Address]]:
    template = yaml.safe_load((SINGLE / "template.yaml").read_text())
    data = NetworkData.model_validate(template["spec"]["preprovisioningNetworkData"])
    host = BareMetalHost.from_k8s(yaml.safe_load((SINGLE / "host.yaml").read_text()))
    return data, host, {"prov-pool": Address("172.22.0.10", 24, "172.22.0.1", ("172.22.0.2",))}


@pytest.mark.parametrize(
    ("addresses", "expected"),
    [
        pytest.param(None, [], id="renders and passes"),
        pytest.param(
            {"prov-pool": Address("172.22.0.10", 24, "172.23.0.1")},
            [
                'route: network "prov": default route 0.0.0.0/0 gateway 172.23.0.1 '
                "is not on-link in 172.22.0.0/24"
            ],
            id="renders, gateway off-link",
        ),
        pytest.param({}, ["render: pool not found in cache"], id="render fails"),
    ],
)
def test_validate_for_host(addresses: dict[str, Address] | None, expected: list[str]) -> None:
    data, host, good = _single_inputs()
    found = validate_for_host(data, host, good if addresses is None else addresses)
    assert [str(p) for p in found] == expected


def test_validate_for_host_without_network_data() -> None:
    assert validate_for_host(None, HOST, {}) == (
        Problem(ValidationRule.RENDER, "the template has no network data"),
    )
