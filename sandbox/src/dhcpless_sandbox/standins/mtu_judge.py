"""Whether every link of the data runs at an MTU its network carries, after glean wrote its files.

An interface whose file carries an MTU runs at it; one whose file has none keeps what the
kernel gave it: 1500 for an Ethernet NIC or a bond (linux `net/ethernet/eth.c` `ether_setup`,
`ETH_DATA_LEN`), and its parent's for a VLAN (`net/8021q/vlan_netlink.c` `vlan_newlink`);
NetworkManager leaves an MTU it is not given as it is. glean 1.25.1 writes no MTU line at all
(`cmd.py`: neither the ifcfg, the keyfile nor the debian writer has one), so a link whose data
says less than 1500 runs larger frames than its network carries: they are dropped, and the
ramdisk's large transfers (the image, the agent's lookups) stall. A link at more than 1500
runs at 1500, which such a network carries. Interfaces are named as glean names them
(`get_config_drive_interfaces`): a NIC by its MAC, a bond by its link id, a VLAN
`<parent>.<vlan_id>`. Pure.
"""

from __future__ import annotations

import configparser
from collections.abc import Mapping
from typing import Any

from dhcpless_sandbox.standins.ifupdown import parse_ifupdown

DEFAULT_MTU = 1500
_IFCFG = "/etc/sysconfig/network-scripts/ifcfg-"
_KEYFILE = "/etc/NetworkManager/system-connections/"


def mtu_lost(
    network_data: Mapping[str, Any], files: Mapping[str, str], nics: Mapping[str, str]
) -> str | None:
    """The first link (document order) that runs above its data's MTU, or None. `nics`: MAC ->
    the NIC name the ramdisk saw."""
    links = [link for link in network_data.get("links") or [] if isinstance(link, Mapping)]
    by_id = {str(link.get("id")): link for link in links}
    written = written_mtus(files)
    for link in links:
        wanted = link.get("mtu")
        if not isinstance(wanted, int) or isinstance(wanted, bool):
            continue
        runs_at = _runs_at(link, by_id, nics, written)
        if runs_at is not None and runs_at > wanted:
            how = "as written" if _name(link, by_id, nics) in written else "glean wrote none"
            return (
                f"link {link.get('id')}: runs at MTU {runs_at} ({how}), its network carries "
                f"{wanted}: larger frames are dropped"
            )
    return None


def written_mtus(files: Mapping[str, str]) -> dict[str, int]:
    """Interface name -> the MTU its file sets (ifcfg `MTU=`, keyfile `mtu=`, ifupdown `mtu`)."""
    found: dict[str, int] = {}
    for path, text in files.items():
        if path.startswith(_IFCFG):
            values = dict(line.split("=", 1) for line in text.splitlines() if "=" in line)
            _put(found, values.get("DEVICE", path.removeprefix(_IFCFG)), values.get("MTU"))
        elif path.startswith(_KEYFILE):
            parser = configparser.ConfigParser(strict=False, interpolation=None)
            parser.read_string(text)
            mtu = next((s["mtu"] for s in parser.values() if "mtu" in s), None)
            _put(found, parser.get("connection", "id", fallback=""), mtu)
    for stanza in parse_ifupdown({p: t for p, t in files.items() if "/network/" in p}):
        _put(found, stanza.name, stanza.options.get("mtu"))
    return found


def _put(found: dict[str, int], name: str, value: str | None) -> None:
    if value is not None and value.strip().isdigit():
        found[name] = int(value.strip())


def _name(link: Mapping[str, Any], by_id: Mapping[str, Any], nics: Mapping[str, str]) -> str:
    """The interface glean makes of `link` ("" when it cannot say: a dangling parent)."""
    if link.get("type") == "vlan":
        parent = by_id.get(str(link.get("vlan_link")))
        base = _name(parent, by_id, nics) if isinstance(parent, Mapping) else ""
        return f"{base}.{link.get('vlan_id')}" if base else ""
    if link.get("type") == "bond":
        return str(link.get("id"))
    return nics.get(str(link.get("ethernet_mac_address", "")).lower(), "")


def _runs_at(
    link: Mapping[str, Any],
    by_id: Mapping[str, Any],
    nics: Mapping[str, str],
    written: Mapping[str, int],
) -> int | None:
    """The MTU the link's interface runs at: written, else the kernel's (a VLAN: its parent's)."""
    name = _name(link, by_id, nics)
    if name in written:
        return written[name]
    parent = by_id.get(str(link.get("vlan_link")))
    if link.get("type") == "vlan" and isinstance(parent, Mapping):
        return _runs_at(parent, by_id, nics, written)
    return DEFAULT_MTU if name else None
