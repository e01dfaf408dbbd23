"""The inspection ramdisk's network boot: glean on the host's network data, on a fake root.

Exists so BMO's stand-in judges network data the way a real host would: glean, the agent the
real IPA ramdisk uses, reads the config drive's `network_data.json` and configures the NICs it
finds in /sys/class/net. Here both are faked in a temporary root (the boot NIC with
`spec.bootMACAddress`, plus every other NIC the data names) and glean runs with `--noop`, so
nothing on this machine changes; `ifupdown` reads back what it would have written.
"""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
import tempfile
import threading
import warnings
from argparse import Namespace
from collections.abc import Mapping
from enum import StrEnum
from pathlib import Path
from types import ModuleType
from typing import Any

from dhcpless.sandbox.ifupdown import BootResult, boot_nic_addresses, parse_ifupdown

__all__ = ["BootResult", "GleanMode", "ramdisk_boot"]

_DISTRO = "debian"
"""glean's ifupdown writer: its output is the easiest to read back."""

_IN_PROCESS = threading.Lock()
"""In-process glean runs one at a time: `warnings.catch_warnings` is process-global."""

_GLEAN_TIMEOUT = 30

INSTALL_HINT = "pip install 'metal3-dhcpless[sandbox]'"


class GleanMissing(ModuleNotFoundError):
    """The sandbox's ramdisk boot needs glean, an optional dependency (the `sandbox` extra).

    The functions never need it, so the container image does not carry it."""


def require_glean() -> ModuleType:
    """glean's command module, or a `GleanMissing` that says how to install it."""
    try:
        return importlib.import_module("glean.cmd")
    except ModuleNotFoundError as err:
        message = f"the sandbox's ramdisk boot runs glean, which is not installed: {INSTALL_HINT}"
        raise GleanMissing(message) from err


class GleanMode(StrEnum):
    """How the ramdisk runs glean: its CLI in a subprocess (isolated, ~60 ms a boot), or its
    functions in this process (~3 ms, but glean leaks file handles and shares our globals)."""

    IN_PROCESS = "in-process"
    SUBPROCESS = "subprocess"


def ramdisk_boot(
    network_data: Mapping[str, Any], boot_mac: str, mode: GleanMode = GleanMode.SUBPROCESS
) -> BootResult:
    """Boot a fake ramdisk with `network_data` as its config drive; see what the boot NIC got."""
    with tempfile.TemporaryDirectory(prefix="ramdisk-") as root:
        nics = _fake_root(Path(root), network_data, boot_mac.lower())
        files = _run_glean(root, mode)
    return boot_nic_addresses(parse_ifupdown(files), nics[boot_mac.lower()])


def _fake_root(root: Path, network_data: Mapping[str, Any], boot_mac: str) -> dict[str, str]:
    """Config drive plus /sys/class/net: the boot NIC, and any other NIC the data names."""
    drive = root / "mnt/config/openstack/latest"
    drive.mkdir(parents=True)
    (drive / "network_data.json").write_text(json.dumps(network_data))
    (drive / "meta_data.json").write_text("{}")
    macs = [boot_mac, *sorted(_ethernet_macs(network_data) - {boot_mac})]
    nics = {mac: f"eth{index}" for index, mac in enumerate(macs)}
    for mac, nic in nics.items():
        sysfs = root / "sys/class/net" / nic
        sysfs.mkdir(parents=True)
        for name, value in (("address", mac), ("addr_assign_type", "0"), ("carrier", "1")):
            (sysfs / name).write_text(value + "\n")
    return nics


def _ethernet_macs(network_data: Mapping[str, Any]) -> set[str]:
    links = network_data.get("links") or []
    return {
        str(link["ethernet_mac_address"]).lower()
        for link in links
        if isinstance(link, dict) and link.get("type") not in ("bond", "vlan")
        if link.get("ethernet_mac_address")
    }


def _run_glean(root: str, mode: GleanMode) -> dict[str, str]:
    flags = ["--root", root, "--distro", _DISTRO, "--skip-dns", "--no-dhcp-fallback", "--noop"]
    if mode is GleanMode.SUBPROCESS:
        command = [sys.executable, "-m", "glean.cmd", *flags]
        out = subprocess.run(
            command, capture_output=True, text=True, check=True, timeout=_GLEAN_TIMEOUT
        )
        return _parse_noop_output(out.stdout)
    args = Namespace(root=root, distro=_DISTRO, noop=True, interface=None)
    args.skip_dns, args.no_dhcp_fallback, args.use_nm = True, True, False
    glean = require_glean()
    with _IN_PROCESS, warnings.catch_warnings():
        warnings.simplefilter("ignore", ResourceWarning)  # glean never closes what it opens
        interfaces = glean.get_config_drive_interfaces(glean.get_network_info(args))
        system = glean.get_sys_interfaces(None, args)
        return dict(glean.write_debian_interfaces(interfaces, system, args))


def _parse_noop_output(text: str) -> dict[str, str]:
    """glean --noop prints `### Write <path>` and then the file for every file it would write."""
    files: dict[str, str] = {}
    for chunk in text.split("### Write ")[1:]:
        path, _, content = chunk.partition("\n")
        files[path.strip()] = content
    return files
