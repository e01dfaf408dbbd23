"""The sandbox ramdisk's verdict on glean's per-NIC runs (`standins.ramdisk_judge`), pure.

Every run is judged: one that died leaves its NIC to DHCP (down, whichever NIC it was); an
address of the data that no written file carries is down (a file rewritten by a later network
or run); otherwise the boot NIC must carry its claimed address.
"""

from __future__ import annotations

from typing import Any

import pytest

from dhcpless_sandbox.standins.ramdisk_judge import judge_runs

BOOT = ("52:54:00:00:00:01", "eth0")
DATA = {
    "links": [
        {"id": "eth0", "type": "phy", "ethernet_mac_address": BOOT[0]},
        {"id": "eth1", "type": "phy", "ethernet_mac_address": "52:54:00:00:00:02"},
    ],
    "networks": [
        {"id": "a", "type": "ipv4", "link": "eth0", "ip_address": "10.0.0.5"},
        {"id": "b", "type": "ipv4", "link": "eth1", "ip_address": "10.0.1.5"},
    ],
}
IFCFG = "/etc/sysconfig/network-scripts/ifcfg-"


def ifcfg(nic: str, address: str) -> dict[str, str]:
    return {f"{IFCFG}{nic}": f"DEVICE={nic}\nIPADDR={address}\nNETMASK=255.255.255.0\n"}


def run(nic: str | None, code: int = 0, files: dict[str, str] | None = None) -> dict[str, Any]:
    return {
        "nic": nic,
        "code": code,
        "error": "KeyError in x" if code else "",
        "files": files or {},
    }


EARLY = run(None)
ETH0, ETH1 = (
    run("eth0", files=ifcfg("eth0", "10.0.0.5")),
    run("eth1", files=ifcfg("eth1", "10.0.1.5")),
)


@pytest.mark.parametrize(
    ("runs", "up", "reason"),
    [
        pytest.param(
            [EARLY, ETH0, ETH1],
            True, "eth0 configured with 10.0.0.5", id="every-nic-up",
        ),
        pytest.param(
            [EARLY, ETH0, run("eth1", code=1)],
            False, "glean for eth1 exited 1 (KeyError in x)", id="another-nic-died",
        ),
        pytest.param(
            [run(None, code=1), ETH0, ETH1],
            False, "glean's early run exited 1", id="early-run-died",
        ),
        pytest.param(
            [EARLY, ETH0, run("eth1", files=ifcfg("eth1", "10.9.9.9"))],
            False, "network b on link eth1: no file glean wrote has it", id="an-address-lost",
        ),
        pytest.param(
            [EARLY, run("eth0", files=ifcfg("eth0", "10.0.1.5") | ifcfg("eth9", "10.0.0.5"))],
            False, "boot NIC eth0 got 10.0.1.5, not the claimed 10.0.0.5", id="on-the-wrong-nic",
        ),
    ],
)  # fmt: skip
def test_every_nic_s_run_is_judged(runs: list[dict[str, Any]], up: bool, reason: str) -> None:
    result = judge_runs(DATA, runs, BOOT, redhat=True)
    assert (result.ok, result.reason.startswith(reason)) == (up, True), result.reason


KEYFILES = "/etc/NetworkManager/system-connections/"


def keyfile(name: str, typed: str, address: str, tail: str) -> dict[str, str]:
    """A keyfile as glean 1.25.1 writes it (`_network_config`), typed `typed`."""
    text = (
        f"[connection]\nid={name}\ntype={typed}\n\n[ipv4]\nmethod=manual\n"
        f"address1={address}/24\n\n[802-3-ethernet]\nmac_address={BOOT[0]}\n{tail}"
    )
    return {f"{KEYFILES}{name}.nmconnection": text}


VLAN_DATA = {
    "links": [
        {"id": "eth0", "type": "phy", "ethernet_mac_address": BOOT[0]},
        {"id": "v100", "type": "vlan", "vlan_link": "eth0", "vlan_id": 100},
    ],
    "networks": [{"id": "a", "type": "ipv4", "link": "v100", "ip_address": "10.0.0.5"}],
}
VLAN_TAIL = "\n[vlan]\nid=100\nparent=eth0\n"


@pytest.mark.parametrize(
    ("files", "up", "reason"),
    [
        pytest.param(
            keyfile("eth0.100", "802-3-ethernet", "10.0.0.5", VLAN_TAIL),
            False, "glean's keyfile for VLAN eth0.100 is an Ethernet profile", id="vlan-as-eth",
        ),
        pytest.param(
            keyfile("bond0", "802-3-ethernet", "10.0.0.5", "type=bond\n"),
            False, "glean's keyfile for bond bond0 is an Ethernet profile", id="bond-as-eth",
        ),
        pytest.param(
            keyfile("eth0.100", "vlan", "10.0.0.5", VLAN_TAIL),
            True, "eth0 configured with 10.0.0.5", id="a-true-vlan",
        ),
    ],
)  # fmt: skip
def test_a_keyfile_is_what_its_connection_type_says(
    files: dict[str, str], up: bool, reason: str
) -> None:
    """glean 1.25.1's el10 keyfiles are all `type=802-3-ethernet`: NetworkManager makes no
    VLAN or bond of them (seen in `tests/netns`), so their addresses are lost."""
    result = judge_runs(VLAN_DATA, [EARLY, run("eth0", files=files)], BOOT, redhat=True)
    assert (result.ok, result.reason.startswith(reason)) == (up, True), result.reason
