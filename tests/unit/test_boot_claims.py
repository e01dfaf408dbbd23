"""The BMO stand-in's verdict on a ramdisk boot: the claimed address must be on the boot NIC.

Covers `claimed_on_boot_nic` (the addresses the data puts on the boot NIC, directly or through
a bond and a VLAN, never another NIC's) and `judge` (up only with every claimed address), and
`redhat_net` reading glean's ifcfg and keyfile output into which interfaces carry the boot NIC.
"""

from __future__ import annotations

from typing import Any

import pytest

from dhcpless_sandbox.standins.boot_claims import claimed_on_boot_nic, judge
from dhcpless_sandbox.standins.redhat_net import on_boot_nic, parse_redhat

BOOT, OTHER = "52:54:00:00:00:01", "52:54:00:00:00:02"


def nic(link_id: str, mac: str) -> dict[str, Any]:
    return {"id": link_id, "type": "phy", "ethernet_mac_address": mac}


def net(link: str, address: str, kind: str = "ipv4") -> dict[str, Any]:
    return {"id": f"n-{link}-{kind}", "type": kind, "link": link, "ip_address": address}


BOND = {"id": "bond0", "type": "bond", "bond_links": ["a", "b"]}
VLAN = {"id": "v10", "type": "vlan", "vlan_link": "bond0"}


@pytest.mark.parametrize(
    ("data", "claimed"),
    [
        pytest.param(
            {"links": [nic("a", BOOT)], "networks": [net("a", "10.0.0.5")]},
            ("10.0.0.5",),
            id="on the NIC",
        ),
        pytest.param(
            {"links": [nic("a", BOOT.upper())], "networks": [net("a", "fd00::5/64", "ipv6")]},
            ("fd00::5",),
            id="IPv6 with prefix, MAC case",
        ),
        pytest.param(
            {
                "links": [nic("a", BOOT), nic("b", OTHER), BOND, VLAN],
                "networks": [net("v10", "10.0.0.6")],
            },
            ("10.0.0.6",),
            id="via bond and VLAN",
        ),
        pytest.param(
            {"links": [nic("a", OTHER), nic("b", BOOT)], "networks": [net("a", "10.0.0.7")]},
            (),
            id="on another NIC",
        ),
        pytest.param(
            {"links": [nic("a", BOOT)], "networks": [{**net("a", ""), "type": "ipv4_dhcp"}]},
            (),
            id="DHCP only",
        ),
        pytest.param({"links": "bad", "networks": None}, (), id="malformed"),
    ],
)
def test_claimed_on_boot_nic(data: dict[str, Any], claimed: tuple[str, ...]) -> None:
    assert claimed_on_boot_nic(data, BOOT) == claimed


@pytest.mark.parametrize(
    ("got", "claimed", "ok", "reason"),
    [
        pytest.param(
            ("10.0.0.5",), ("10.0.0.5",), True, "eth0 configured with 10.0.0.5", id="got it"
        ),
        pytest.param(
            ("10.0.0.9",),
            ("10.0.0.5",),
            False,
            "boot NIC eth0 got 10.0.0.9, not the claimed 10.0.0.5",
            id="another address",
        ),
        pytest.param(
            (),
            ("10.0.0.5",),
            False,
            "boot NIC eth0 got nothing, not the claimed 10.0.0.5",
            id="nothing",
        ),
        pytest.param(
            ("10.0.0.5",),
            (),
            False,
            "no static address for the boot NIC eth0 in the network data",
            id="nothing claimed",
        ),
    ],
)
def test_judge(got: tuple[str, ...], claimed: tuple[str, ...], ok: bool, reason: str) -> None:
    result = judge(got, claimed, "eth0")
    assert (result.ok, result.reason) == (ok, reason)


IFCFG = "/etc/sysconfig/network-scripts/ifcfg-"
KEYFILES = "/etc/NetworkManager/system-connections/"


@pytest.mark.parametrize(
    ("files", "carried"),
    [
        pytest.param(
            {
                f"{IFCFG}eth0": "DEVICE=eth0\nMASTER=bond0\nSLAVE=yes\n",
                f"{IFCFG}eth1": "DEVICE=eth1\nIPADDR=10.9.9.9\nNETMASK=255.255.255.0\n",
                f"{IFCFG}bond0": "DEVICE=bond0\n",
                f"{IFCFG}bond0.10": "DEVICE=bond0.10\nVLAN=yes\nIPADDR=10.0.0.6\n"
                "NETMASK=255.255.255.0\nIPV6ADDR=fd00::6/64\n",
            },
            {"eth0": (), "bond0": (), "bond0.10": ("10.0.0.6/24", "fd00::6/64")},
            id="ifcfg bond+VLAN",
        ),
        pytest.param(
            {
                f"{KEYFILES}eth0.nmconnection": "[connection]\nid=eth0\n[ipv4]\nmethod=manual\n"
                "address1=10.0.0.5/24\nroute1=0.0.0.0/0,10.0.0.1\n",
                f"{KEYFILES}eth1.nmconnection": "[connection]\nid=eth1\n[ipv4]\n"
                "address1=10.9.9.9/24\n",
            },
            {"eth0": ("10.0.0.5/24",)},
            id="keyfile NIC",
        ),
        pytest.param(
            {
                f"{KEYFILES}eth0.nmconnection": "[connection]\nid=eth0\ntype=802-3-ethernet\n"
                "[ipv4]\nmethod=manual\n[802-3-ethernet]\nmaster=bond0\nslave-type=bond\n",
                f"{KEYFILES}bond0.nmconnection": "[connection]\nid=bond0\ntype=802-3-ethernet\n"
                "[ipv4]\naddress1=10.0.0.5/24\n[802-3-ethernet]\ntype=bond\n",
                f"{KEYFILES}eth0.7.nmconnection": "[connection]\nid=eth0.7\n"
                "type=802-3-ethernet\n[ipv4]\naddress1=10.0.0.7/24\n[vlan]\nparent=eth0\n",
            },
            {"eth0": ()},
            id="glean el10: a port, bond and VLAN all typed Ethernet (NM: no bond, no VLAN)",
        ),
    ],
)
def test_redhat_output_on_the_boot_nic(
    files: dict[str, str], carried: dict[str, tuple[str, ...]]
) -> None:
    assert {i.name: i.addresses for i in on_boot_nic(parse_redhat(files), "eth0")} == carried
