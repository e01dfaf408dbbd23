"""Which addresses the network data promises the boot NIC, and whether the ramdisk got them.

BMO's stand-in only lets a host come up when the boot NIC is configured with the address that
was claimed for it, not just any address: the data names the boot NIC by MAC (a NIC link),
and its static networks sit on that link or on a bond or VLAN built on it. Those networks'
`ip_address` values are what glean must have written onto the boot NIC's interfaces.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dhcpless_sandbox.standins.ifupdown import BootResult

_STATIC = ("ipv4", "ipv6")


def _links(network_data: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    links = network_data.get("links")
    return [link for link in links if isinstance(link, Mapping)] if isinstance(links, list) else []


def _parents(link: Mapping[str, Any]) -> list[Any]:
    ports = link.get("bond_links")
    return [link.get("vlan_link"), *(ports if isinstance(ports, list) else [])]


def claimed_on_boot_nic(network_data: Mapping[str, Any], boot_mac: str) -> tuple[str, ...]:
    """The static addresses the data puts on the boot NIC (directly or via bond/VLAN)."""
    links = _links(network_data)
    found = {
        link.get("id")
        for link in links
        if link.get("type") not in ("bond", "vlan")
        and str(link.get("ethernet_mac_address", "")).lower() == boot_mac.lower()
    }
    while grown := {link.get("id") for link in links if found & set(_parents(link))} - found:
        found |= grown
    networks = network_data.get("networks")
    return tuple(
        str(net.get("ip_address", "")).split("/")[0]
        for net in (networks if isinstance(networks, list) else [])
        if isinstance(net, Mapping) and net.get("type") in _STATIC and net.get("link") in found
    )


def judge(got: tuple[str, ...], claimed: tuple[str, ...], boot_nic: str) -> BootResult:
    """Up only when every claimed address is on the boot NIC (and there is at least one)."""
    if not claimed:
        return BootResult((), f"no static address for the boot NIC {boot_nic} in the network data")
    missing = [address for address in claimed if address not in got]
    if missing:
        shown = ", ".join(got) or "nothing"
        reason = f"boot NIC {boot_nic} got {shown}, not the claimed {', '.join(missing)}"
        return BootResult((), reason)
    return BootResult(got, f"{boot_nic} configured with {', '.join(got)}")
