"""Fleet layouts as rendered OpenStack network data, for the ramdisk rules and the ramdisk boot.

Each is the shape our renderer writes (every network has `routes` and `network_id`; networks
in rendered order: ipv4, ipv6, ipv4_dhcp, ipv6_dhcp, ipv6_slaac); the boot NIC is `BOOT`.
"""

from __future__ import annotations

from typing import Any

BOOT, OTHER = "52:54:00:00:00:01", "52:54:00:00:00:02"
Doc = dict[str, Any]
V6_MASK = "ffff:ffff:ffff:ffff::"


def phy(link_id: str, mac: str = BOOT, mtu: int = 1500) -> Doc:
    return {"id": link_id, "type": "phy", "ethernet_mac_address": mac, "mtu": mtu}


def bond(link_id: str, ports: list[str]) -> Doc:
    return {
        "id": link_id, "type": "bond", "bond_links": ports, "bond_mode": "active-backup",
        "bond_xmit_hash_policy": "", "ethernet_mac_address": BOOT, "mtu": 1500,
    }  # fmt: skip


def vlan(link_id: str, parent: str, vid: int = 100, mtu: int = 1500) -> Doc:
    return {
        "id": link_id, "type": "vlan", "vlan_link": parent, "vlan_id": vid,
        "vlan_mac_address": BOOT, "mtu": mtu,
    }  # fmt: skip


def route(network: str, netmask: str, gateway: str) -> Doc:
    return {"network": network, "netmask": netmask, "gateway": gateway, "services": []}


DEFAULT4 = route("0.0.0.0", "0.0.0.0", "192.168.0.1")
DEFAULT6 = route("::", "::", "2001:db8::1")


def net(kind: str, net_id: str, link: str, address: str = "", mask: str = "", *routes: Doc) -> Doc:
    found: Doc = {"id": net_id, "type": kind, "link": link, "routes": list(routes)}
    if address:
        found |= {"ip_address": address, "netmask": mask}
    return found | {"network_id": net_id}


def v4(net_id: str, link: str, address: str, *routes: Doc, mask: str = "255.255.255.0") -> Doc:
    return net("ipv4", net_id, link, address, mask, *routes)


def v6(net_id: str, link: str, address: str, *routes: Doc, mask: str = V6_MASK) -> Doc:
    return net("ipv6", net_id, link, address, mask, *routes)


def doc(links: list[Doc], networks: list[Doc], dns: tuple[str, ...] = ()) -> Doc:
    services = [{"type": "dns", "address": a} for a in dns]
    return {"links": links, "networks": networks, "services": services}


ETH0 = [phy("eth0")]
TWO = [phy("eth0"), phy("eth1", OTHER)]
BOND = [*TWO, bond("bond0", ["eth0", "eth1"])]
LAYOUTS: dict[str, Doc] = {
    "ipv4": doc(ETH0, [v4("n4", "eth0", "192.168.0.10", DEFAULT4)], ("192.168.0.53",)),
    "ipv6": doc(ETH0, [v6("n6", "eth0", "2001:db8::10", DEFAULT6)]),
    "ipv6-slaac": doc(ETH0, [net("ipv6_slaac", "s6", "eth0")]),
    "dual": doc(
        ETH0,
        [v4("n4", "eth0", "192.168.0.10", DEFAULT4), v6("n6", "eth0", "2001:db8::10", DEFAULT6)],
    ),
    "ipv4-slaac": doc(
        ETH0, [v4("n4", "eth0", "192.168.0.10", DEFAULT4), net("ipv6_slaac", "s6", "eth0")]
    ),
    "ipv4-ipv6-slaac": doc(
        ETH0,
        [
            v4("n4", "eth0", "192.168.0.10"),
            v6("n6", "eth0", "2001:db8::10"),
            net("ipv6_slaac", "s6", "eth0"),
        ],
    ),
    "ipv4-dhcp6": doc(ETH0, [v4("n4", "eth0", "192.168.0.10"), net("ipv6_dhcp", "d6", "eth0")]),
    "two-nics": doc(
        TWO, [v4("n4", "eth0", "192.168.0.10", DEFAULT4), v4("m4", "eth1", "192.168.1.10")]
    ),
    "two-ipv4-one-link": doc(
        ETH0, [v4("a4", "eth0", "192.168.0.10", DEFAULT4), v4("b4", "eth0", "192.168.1.10")]
    ),
    "ipv4-and-dhcp4": doc(ETH0, [v4("a4", "eth0", "192.168.0.10"), net("ipv4_dhcp", "d4", "eth0")]),
    "two-ipv6-one-link": doc(
        ETH0,
        [
            v4("n4", "eth0", "192.168.0.10"),
            v6("a6", "eth0", "2001:db8::10"),
            v6("b6", "eth0", "2001:db9::10"),
        ],
    ),
    "vlan": doc([*ETH0, vlan("v100", "eth0")], [v4("n4", "v100", "192.168.0.10", DEFAULT4)]),
    "vlan-and-native": doc(
        [*ETH0, vlan("v100", "eth0")],
        [v4("n4", "eth0", "192.168.0.10", DEFAULT4), v4("m4", "v100", "192.168.1.10")],
    ),
    "vlan-on-ipv6-only-nic": doc(
        [*ETH0, vlan("v100", "eth0")],
        [v4("m4", "v100", "192.168.0.10", DEFAULT4), v6("n6", "eth0", "2001:db8::10")],
    ),
    "bond": doc(BOND, [v4("n4", "bond0", "192.168.0.10", DEFAULT4)]),
    "bond-vlan": doc([*BOND, vlan("v100", "bond0")], [v4("n4", "v100", "192.168.0.10", DEFAULT4)]),
    "bond-one-port": doc(
        [*ETH0, bond("bond0", ["eth0"])], [v4("n4", "bond0", "192.168.0.10", DEFAULT4)]
    ),
    "slash8-route": doc(
        ETH0,
        [
            v4(
                "n4",
                "eth0",
                "10.0.0.10",
                route("172.16.0.0", "255.255.0.0", "10.0.0.1"),
                mask="255.0.0.0",
            )
        ],
    ),
    "slash8-no-route": doc(ETH0, [v4("n4", "eth0", "10.0.0.10", mask="255.0.0.0")]),
    "routes": doc(
        ETH0,
        [v4("n4", "eth0", "192.168.0.10", DEFAULT4, route("10.0.0.0", "255.0.0.0", "192.168.0.1"))],
    ),
    "ipv6-112-route": doc(
        ETH0,
        [
            v4("n4", "eth0", "192.168.0.10"),
            v6("n6", "eth0", "2001:db8::10", DEFAULT6, mask="ffff:ffff:ffff:ffff:ffff:ffff:ffff:0"),
        ],
    ),
    "ipv6-routes": doc(
        ETH0,
        [
            v4("n4", "eth0", "192.168.0.10"),
            v6(
                "n6",
                "eth0",
                "2001:db8::10",
                DEFAULT6,
                route("2001:db9::", "ffff:ffff::", "2001:db8::1"),
            ),
        ],
    ),
    "mtu-dns": doc(
        [phy("eth0", mtu=9000)],
        [v4("n4", "eth0", "192.168.0.10", DEFAULT4)],
        ("192.168.0.53", "192.168.0.54"),
    ),
    "mtu-1400": doc([phy("eth0", mtu=1400)], [v4("n4", "eth0", "192.168.0.10", DEFAULT4)]),
    "vlan-mtu-1400": doc(
        [phy("eth0", mtu=9000), vlan("v100", "eth0", mtu=1400)],
        [v4("n4", "v100", "192.168.0.10", DEFAULT4)],
    ),
    "vlan-mtu-9000": doc(
        [phy("eth0", mtu=9000), vlan("v100", "eth0", mtu=9000)],
        [v4("n4", "v100", "192.168.0.10", DEFAULT4)],
    ),
}
