"""Read back what glean's redhat writer wrote: which static addresses the boot NIC ended up with.

The community IPA ramdisk is CentOS Stream based, so glean's redhat writer is the code that
really configures it (glean `cmd.py` `write_redhat_interfaces`): ifcfg files under
/etc/sysconfig/network-scripts on el9, NetworkManager keyfiles under
/etc/NetworkManager/system-connections on el10 (glean's `is_keyfile_format`). Both are read
here into one shape, as their consumer reads them; `ifupdown` does the same for the debian writer.

A keyfile is what its `[connection] type` says. glean 1.25.1's keyfile preamble
(`_network_config`) is always `type=802-3-ethernet` with `[802-3-ethernet] mac_address=`;
`_set_rh_vlan` only appends a `[vlan]` section and `_set_rh_bonding` a `type=bond` (or a port's
`master=`) under `[802-3-ethernet]`. NetworkManager reads such a VLAN or bond as an Ethernet
profile on that MAC (the NIC, untagged): no VLAN or bond is created, a port is enslaved to
nothing (`impostors` lists them; the netns tier saw it with NetworkManager 1.42).
"""

from __future__ import annotations

import configparser
import ipaddress
from collections.abc import Mapping
from dataclasses import dataclass

_IFCFG = "/etc/sysconfig/network-scripts/ifcfg-"
_KEYFILE = "/etc/NetworkManager/system-connections/"
_DEFAULTS = ("0.0.0.0/0", "::/0")
_ETHERNET = "802-3-ethernet"


@dataclass(frozen=True)
class Interface:
    """One configured interface: addresses as `ip/prefix`, default gateways, how it stacks."""

    name: str
    addresses: tuple[str, ...]
    gateways: tuple[str, ...]
    master: str | None
    vlan_parent: str | None


def parse_redhat(files: Mapping[str, str]) -> list[Interface]:
    """Every interface in ifcfg files and keyfiles among `files` ({path: content})."""
    found = []
    for path, text in sorted(files.items()):
        if path.startswith(_IFCFG):
            found.append(_ifcfg(path.removeprefix(_IFCFG), text))
        elif path.startswith(_KEYFILE) and path.endswith(".nmconnection"):
            found.append(_keyfile(text))
    return found


def _ifcfg(name: str, text: str) -> Interface:
    values = dict(line.split("=", 1) for line in text.splitlines() if "=" in line)
    addresses = []
    if "IPADDR" in values:
        prefix = ipaddress.IPv4Network(f"0.0.0.0/{values.get('NETMASK', '32')}").prefixlen
        addresses.append(f"{values['IPADDR']}/{prefix}")
    if "IPV6ADDR" in values:
        addresses.append(values["IPV6ADDR"])
    gateways = tuple(values[k] for k in ("GATEWAY", "IPV6_DEFAULTGW") if k in values)
    device = values.get("DEVICE", name)
    parent = device.rsplit(".", 1)[0] if values.get("VLAN") == "yes" else None
    return Interface(device, tuple(addresses), gateways, values.get("MASTER"), parent)


def _keyfile(text: str) -> Interface:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.read_string(text)
    addresses, gateways = [], []
    for family in ("ipv4", "ipv6"):
        section = parser[family] if parser.has_section(family) else {}
        for key, value in section.items():
            if key.startswith("address"):
                addresses.append(value)
            elif key.startswith("route") and value.split(",")[0] in _DEFAULTS:
                gateways.append(value.split(",")[1])
    master = parser.get("connection", "master", fallback=None)  # NM reads it nowhere else
    typed = parser.get("connection", "type", fallback="")
    parent = None if typed == _ETHERNET else parser.get("vlan", "parent", fallback=None)
    name = parser.get("connection", "id", fallback="")
    return Interface(name, tuple(addresses), tuple(gateways), master, parent)


def impostors(files: Mapping[str, str]) -> list[tuple[str, str]]:
    """(connection id, "VLAN" or "bond") of every keyfile among `files` that describes a VLAN
    or a bond but is typed Ethernet: NetworkManager configures the NIC of its MAC instead."""
    found = []
    for path, text in sorted(files.items()):
        if not (path.startswith(_KEYFILE) and path.endswith(".nmconnection")):
            continue
        parser = configparser.ConfigParser(strict=False, interpolation=None)
        parser.read_string(text)
        if parser.get("connection", "type", fallback="") != _ETHERNET:
            continue
        name = parser.get("connection", "id", fallback="")
        if parser.has_section("vlan"):
            found.append((name, "VLAN"))
        elif parser.get(_ETHERNET, "type", fallback="") == "bond":
            found.append((name, "bond"))
    return found


def carriers(interfaces: list[Interface], boot_nic: str) -> set[str]:
    """The boot NIC, the bond it is enslaved to, and VLANs on either (any depth)."""
    found = {boot_nic}
    while True:
        masters = {i.master for i in interfaces if i.name in found and i.master is not None}
        vlans = {i.name for i in interfaces if i.vlan_parent in found}
        grown = found | masters | vlans
        if grown == found:
            return found
        found = grown


def on_boot_nic(interfaces: list[Interface], boot_nic: str) -> list[Interface]:
    """The configured interfaces that carry the boot NIC's traffic."""
    wanted = carriers(interfaces, boot_nic)
    return [i for i in interfaces if i.name in wanted]
