"""The fake root a sandbox ramdisk boots on: its config drive, its os-release and its NICs.

glean reads `mnt/config/openstack/latest/network_data.json` (`get_network_info`), the NICs of
`sys/class/net/<nic>/{address,addr_assign_type,carrier}` (`get_sys_interfaces`; type 0 is the
permanent address `init/glean-udev.rules` asks for), and picks its writer from the os-release
(`distro`, `is_keyfile_format`): CentOS Stream 9 (ifcfg), 10 (keyfiles) or Debian.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from dhcpless.keys import RamdiskProfile

OS_RELEASE = {
    RamdiskProfile.GLEAN_EL9: 'ID="centos"\nVERSION_ID="9"\nPLATFORM_ID="platform:el9"\n',
    RamdiskProfile.GLEAN_EL10: 'ID="centos"\nVERSION_ID="10"\nPLATFORM_ID="platform:el10"\n',
    RamdiskProfile.GLEAN_DEBIAN: 'ID=debian\nVERSION_ID="12"\n',
}
"""What each glean ramdisk's /etc/os-release says: glean picks its writer from it."""


def build(
    root: Path, network_data: Mapping[str, Any], boot_mac: str, profile: RamdiskProfile
) -> dict[str, str]:
    """Config drive, os-release, /sys/class/net: the boot NIC, and any other NIC the data names."""
    drive = root / "mnt/config/openstack/latest"
    drive.mkdir(parents=True)
    (drive / "network_data.json").write_text(json.dumps(network_data))
    (drive / "meta_data.json").write_text("{}")
    (root / "etc").mkdir()
    (root / "etc/os-release").write_text(OS_RELEASE[profile])
    macs = [boot_mac, *sorted(ethernet_macs(network_data) - {boot_mac})]
    nics = {mac: f"eth{index}" for index, mac in enumerate(macs)}
    for mac, nic in nics.items():
        sysfs = root / "sys/class/net" / nic
        sysfs.mkdir(parents=True)
        for name, value in (("address", mac), ("addr_assign_type", "0"), ("carrier", "1")):
            (sysfs / name).write_text(value + "\n")
    return nics


def ethernet_macs(network_data: Mapping[str, Any]) -> set[str]:
    links = network_data.get("links") or []
    return {
        str(link["ethernet_mac_address"]).lower()
        for link in links
        if isinstance(link, dict) and link.get("type") not in ("bond", "vlan")
        if link.get("ethernet_mac_address")
    }
