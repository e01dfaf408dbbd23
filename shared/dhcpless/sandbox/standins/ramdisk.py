"""The inspection ramdisk's network boot: glean on the host's network data, on a fake root.

Exists so BMO's stand-in judges network data the way a real host would: glean, the agent the
real IPA ramdisk uses, reads the config drive's `network_data.json` and configures the NICs it
finds in /sys/class/net. Here both are faked in a temporary root (the boot NIC with
`spec.bootMACAddress`, plus every other NIC the data names) and glean runs with `--noop`, so
nothing on this machine changes. The community ramdisk is CentOS Stream, so glean's redhat
writer is the default (`redhat_net` reads back its ifcfg files or keyfiles); the debian writer
(`ifupdown`) is kept as a second case. The boot succeeds only when the boot NIC got every
address the data claims for it (`boot_claims`).
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

from dhcpless.sandbox.standins.boot_claims import claimed_on_boot_nic, judge
from dhcpless.sandbox.standins.ifupdown import BootResult, boot_nic_addresses, parse_ifupdown
from dhcpless.sandbox.standins.redhat_net import on_boot_nic, parse_redhat

__all__ = ["BootResult", "GleanDistro", "GleanMode", "ramdisk_boot"]

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


class GleanFailed(RuntimeError):
    """glean stopped with an error on this network data (its last error line, no data)."""


class GleanMode(StrEnum):
    """How the ramdisk runs glean: its CLI in a subprocess (isolated, ~60 ms a boot), or its
    functions in this process (~3 ms, but glean leaks file handles and shares our globals)."""

    IN_PROCESS = "in-process"
    SUBPROCESS = "subprocess"


class GleanDistro(StrEnum):
    """Which glean writer runs: redhat (the community CentOS Stream ramdisk) or debian."""

    REDHAT = "redhat"
    DEBIAN = "debian"


def ramdisk_boot(
    network_data: Mapping[str, Any],
    boot_mac: str,
    mode: GleanMode = GleanMode.SUBPROCESS,
    distro: GleanDistro = GleanDistro.REDHAT,
) -> BootResult:
    """Boot a fake ramdisk with `network_data` as its config drive; see what the boot NIC got."""
    with tempfile.TemporaryDirectory(prefix="ramdisk-") as root:
        nics = _fake_root(Path(root), network_data, boot_mac.lower())
        try:
            files = _run_glean(root, mode, distro)
        except GleanFailed as err:  # the real ramdisk would come up unconfigured
            return BootResult((), f"glean's {distro} writer failed: {err}")
    boot_nic = nics[boot_mac.lower()]
    got = _boot_nic_addresses(files, boot_nic, distro)
    return judge(got, claimed_on_boot_nic(network_data, boot_mac), boot_nic)


def _boot_nic_addresses(
    files: dict[str, str], boot_nic: str, distro: GleanDistro
) -> tuple[str, ...]:
    """The plain IP addresses glean wrote on the boot NIC's interfaces."""
    if distro is GleanDistro.DEBIAN:
        return boot_nic_addresses(parse_ifupdown(files), boot_nic).addresses
    carried = on_boot_nic(parse_redhat(files), boot_nic)
    return tuple(a.split("/")[0] for i in carried for a in i.addresses)


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


def _run_glean(root: str, mode: GleanMode, distro: GleanDistro) -> dict[str, str]:
    flags = ["--root", root, "--distro", distro, "--skip-dns", "--no-dhcp-fallback", "--noop"]
    if mode is GleanMode.SUBPROCESS:
        command = [sys.executable, "-m", "glean.cmd", *flags]
        out = subprocess.run(
            command, capture_output=True, text=True, check=False, timeout=_GLEAN_TIMEOUT
        )
        if out.returncode != 0:
            raise GleanFailed((out.stderr.strip().splitlines() or ["no output"])[-1])
        return _parse_noop_output(out.stdout)
    args = Namespace(root=root, distro=distro.value, noop=True, interface=None)
    args.skip_dns, args.no_dhcp_fallback, args.use_nm = True, True, False
    glean = require_glean()
    with _IN_PROCESS, warnings.catch_warnings():
        warnings.simplefilter("ignore", ResourceWarning)  # glean never closes what it opens
        interfaces = glean.get_config_drive_interfaces(glean.get_network_info(args))
        system = glean.get_sys_interfaces(None, args)
        write = glean.write_debian_interfaces
        if distro is GleanDistro.REDHAT:
            write = glean.write_redhat_interfaces
        try:
            return dict(write(interfaces, system, args))
        except Exception as err:  # glean's own errors: assertions, missing keys
            raise GleanFailed(type(err).__name__) from err


def _parse_noop_output(text: str) -> dict[str, str]:
    """glean --noop prints `### Write <path>` and then the file for every file it would write."""
    files: dict[str, str] = {}
    for chunk in text.split("### Write ")[1:]:
        path, _, content = chunk.partition("\n")
        files[path.strip()] = content
    return files
