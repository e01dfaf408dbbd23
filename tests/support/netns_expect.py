"""What a host's network data says its kernel should hold, and what the kernel holds (pure).

`wanted` turns OpenStack network data into (interface, address/prefix) pairs, routes
(interface, destination, gateway) and link MTUs, with the interface names glean gives
(glean 1.25.1 `cmd.py`, `get_config_drive_interfaces` and the writers: a NIC by its MAC, a
VLAN `<parent>.<vid>` with a bond's parent named by the bond's link id, a bond by its link id).
`seen` reads the same shape from `ip -j addr` / `ip -j route`, global addresses only (the
kernel's own link-local and link routes are not the data's). `missing` says what the data
has that the kernel does not, one sentence each: the netns tier's verdict.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

STATIC = ("ipv4", "ipv6")


@dataclass
class State:
    """Addresses `(ifname, ip/prefix)`, routes `(ifname, dst, gateway)`, MTUs by ifname."""

    addresses: set[tuple[str, str]] = field(default_factory=set)
    routes: set[tuple[str, str, str]] = field(default_factory=set)
    mtus: dict[str, int] = field(default_factory=dict)
    flags: dict[str, set[str]] = field(default_factory=dict)
    """Per `ip/prefix`: the kernel's flags on it (`tentative`, `dadfailed`)."""


def interface_names(network_data: Mapping[str, Any], nics: Mapping[str, str]) -> dict[str, str]:
    """Link id -> the kernel interface glean configures for it (`nics`: MAC -> NIC name)."""
    links = [link for link in network_data.get("links") or [] if isinstance(link, Mapping)]
    names: dict[str, str] = {}
    for link in links:
        if link.get("type") == "bond":
            names[str(link["id"])] = str(link["id"])
        elif link.get("type") != "vlan":
            mac = str(link.get("ethernet_mac_address", "")).lower()
            names[str(link["id"])] = nics.get(mac, str(link["id"]))
    for link in links:
        if link.get("type") == "vlan":
            parent = names.get(str(link.get("vlan_link")), str(link.get("vlan_link")))
            names[str(link["id"])] = f"{parent}.{link.get('vlan_id')}"
    return names


def prefix_of(mask: str) -> int:
    """A netmask (`255.255.255.0`, `ffff:ffff::`) or a prefix length as a prefix length."""
    if mask.isdigit():
        return int(mask)
    return bin(int(ipaddress.ip_address(mask))).count("1")


def wanted(network_data: Mapping[str, Any], nics: Mapping[str, str]) -> State:
    """Every static address, route and MTU of the data, on glean's interface names."""
    names = interface_names(network_data, nics)
    state = State()
    for network in network_data.get("networks") or []:
        if network.get("type") not in STATIC or not network.get("ip_address"):
            continue
        ifname = names.get(str(network.get("link")), str(network.get("link")))
        prefix = prefix_of(str(network.get("netmask", "32")))
        state.addresses.add((ifname, f"{network['ip_address']}/{prefix}"))
        for route in network.get("routes") or []:
            length = prefix_of(str(route["netmask"]))
            dst = "default" if length == 0 else f"{route['network']}/{length}"
            state.routes.add((ifname, dst, str(route["gateway"])))
    for link in network_data.get("links") or []:
        if link.get("mtu") and link.get("type") not in ("bond", "vlan"):
            state.mtus[names[str(link["id"])]] = int(link["mtu"])
    return state


def seen(links: Iterable[Mapping[str, Any]], routes: Iterable[Mapping[str, Any]]) -> State:
    """The kernel's state from `ip -j addr` and `ip -j route` (global scope only)."""
    state = State()
    for link in links:
        state.mtus[str(link["ifname"])] = int(link.get("mtu", 0))
        for info in link.get("addr_info") or []:
            if info.get("scope") != "global":
                continue
            address = f"{info['local']}/{info['prefixlen']}"
            state.addresses.add((str(link["ifname"]), address))
            state.flags[address] = {f for f in ("tentative", "dadfailed") if info.get(f)}
    for route in routes:
        if route.get("gateway"):
            state.routes.add((str(route["dev"]), str(route["dst"]), str(route["gateway"])))
    return state


def missing(want: State, have: State, mtu: bool = True) -> list[str]:
    """What the data has and the kernel does not (an address, a route, an MTU), or an
    address the kernel has that the data does not give that interface."""
    lost = [
        f"address {a} on {i}: not in the kernel" for i, a in sorted(want.addresses - have.addresses)
    ]
    lost += [
        f"address {a} on {i}: not in the data" for i, a in sorted(have.addresses - want.addresses)
    ]
    lost += [
        f"route {d} via {g} on {i}: not in the kernel"
        for i, d, g in sorted(want.routes - have.routes)
    ]
    if mtu:
        lost += [
            f"mtu {value} on {i}: the kernel has {have.mtus.get(i)}"
            for i, value in sorted(want.mtus.items())
            if have.mtus.get(i) != value
        ]
    return lost
