"""Whether a ramdisk whose NICs ran glean one by one came up with every address of its data.

Pure: the runs (`glean_runs`) and the data in, a `BootResult` out. Every NIC's run is judged,
not only the boot NIC's: a run that dies (exit 1, as `glean-nm@.service` would) leaves its NIC
to DHCP fallback, which nothing answers in a DHCP-less network; and an address of the data that
no written file carries (a second network of one family on a link, rewritten by the last one)
never comes up; nor does a VLAN or bond that an el10 keyfile describes as an Ethernet profile
(`redhat_net.impostors`: NetworkManager puts its address on the untagged NIC and makes neither),
nor a link whose interface runs larger frames than its network carries (`mtu_judge`: glean
writes no MTU). Only then does the boot NIC's own claim decide
(`boot_claims.judge`), and its addresses are what the wire observer records.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from dhcpless_sandbox.standins.boot_claims import claimed_on_boot_nic, judge
from dhcpless_sandbox.standins.ifupdown import BootResult, boot_nic_addresses, parse_ifupdown
from dhcpless_sandbox.standins.mtu_judge import mtu_lost
from dhcpless_sandbox.standins.redhat_net import Interface, carriers, impostors, parse_redhat

_STATIC = ("ipv4", "ipv6")
_DHCP = "that NIC falls back to DHCP, which a DHCP-less network does not answer"


def judge_runs(
    network_data: Mapping[str, Any],
    runs: Sequence[Mapping[str, Any]],
    boot: tuple[str, str],
    redhat: bool,
    nics: Mapping[str, str] | None = None,
) -> BootResult:
    """Up only if nothing was `lost`, and the boot NIC (`boot`: its MAC and name) carries its
    claimed addresses."""
    files = _files(runs)
    reason = lost(network_data, runs, redhat, nics)
    if reason is not None:
        return BootResult((), reason)
    on_boot = _written(files, boot[1], redhat)[1]
    return judge(on_boot, claimed_on_boot_nic(network_data, boot[0]), boot[1])


def lost(
    network_data: Mapping[str, Any],
    runs: Sequence[Mapping[str, Any]],
    redhat: bool,
    nics: Mapping[str, str] | None = None,
) -> str | None:
    """What the writer lost, if anything: a run that died, a VLAN or bond written as Ethernet,
    a static address no file has, or (given `nics`, MAC -> NIC name) a link running above its
    MTU (`mtu_judge`)."""
    for run in runs:
        if run["code"] != 0:
            who = f"glean for {run['nic']}" if run["nic"] else "glean's early run"
            return f"{who} exited {run['code']} ({run['error']}): {_DHCP}"
    posing = impostors(_files(runs)) if redhat else []
    if posing:
        name, kind = posing[0]
        return (
            f"glean's keyfile for {kind} {name} is an Ethernet profile (type=802-3-ethernet): "
            f"NetworkManager makes no {kind}, its address goes on the plain NIC of that MAC"
        )
    written = _written(_files(runs), "", redhat)[0]
    for network in _networks(network_data):
        if network["address"] not in written:
            name, link = network["id"], network["link"]
            return f"network {name} on link {link}: no file glean wrote has it"
    return mtu_lost(network_data, _files(runs), nics) if nics is not None else None


def _files(runs: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    """What is on disk after the runs, in their order (a later run rewrites a file)."""
    files: dict[str, str] = {}
    for run in runs:
        files.update(run["files"])
    return files


def _written(
    files: dict[str, str], boot_nic: str, redhat: bool
) -> tuple[set[str], tuple[str, ...]]:
    """Every plain address in the files, and those on the boot NIC's interfaces."""
    if redhat:
        interfaces = parse_redhat(files)
        wanted = carriers(interfaces, boot_nic)
        return _plain(interfaces), tuple(
            a.split("/")[0] for i in interfaces if i.name in wanted for a in i.addresses
        )
    stanzas = parse_ifupdown(files)
    on_boot = boot_nic_addresses(stanzas, boot_nic).addresses
    return {s.options["address"].split("/")[0] for s in stanzas if "address" in s.options}, on_boot


def _plain(interfaces: list[Interface]) -> set[str]:
    return {a.split("/")[0] for i in interfaces for a in i.addresses}


def _networks(network_data: Mapping[str, Any]) -> list[dict[str, str]]:
    networks = network_data.get("networks")
    return [
        {
            "id": str(n.get("id", "?")),
            "link": str(n.get("link", "?")),
            "address": str(n["ip_address"]).split("/")[0],
        }
        for n in (networks if isinstance(networks, list) else [])
        if isinstance(n, Mapping) and n.get("type") in _STATIC and n.get("ip_address")
    ]
