"""Boot a host's network data in a namespace: glean per NIC as the ramdisk runs it, then the
real consumer of what it wrote, then the kernel's state read back.

glean runs exactly as the sandbox's ramdisk runs it (`dhcpless_sandbox.standins.glean_runs`
in a subprocess, on a fake root from `fake_root.build`: the early run, then one run per NIC),
so the NIC names and files are the ones the file-level judge (`ramdisk_judge`) looked at.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dhcpless.keys import RamdiskProfile
from dhcpless_sandbox.standins import fake_root, glean_runs
from tests.support import netns_consumers
from tests.support.netns import Host, Lab
from tests.support.netns_expect import State, seen
from tests.support.waits import eventually, seconds

CONSUMERS = {
    RamdiskProfile.GLEAN_EL10: "NetworkManager",
    RamdiskProfile.GLEAN_DEBIAN: "ifupdown",
}
"""The profiles whose files a consumer on this machine reads (Debian's NM has no ifcfg-rh)."""


@dataclass
class Booted:
    host: Host
    runs: list[dict[str, Any]]
    files: dict[str, str]
    log: str

    def state(self) -> State:
        return seen(self.host.links(), self.host.routes())


def glean(
    network_data: Mapping[str, Any], boot_mac: str, profile: RamdiskProfile
) -> tuple[dict[str, str], list[dict[str, Any]]]:
    """The NICs (MAC -> name) and glean's runs, as the sandbox ramdisk makes them."""
    with tempfile.TemporaryDirectory(prefix="m3dl-root-") as root:
        nics = fake_root.build(Path(root), network_data, boot_mac.lower(), profile)
        command = [sys.executable, "-m", glean_runs.__name__, root, *nics.values()]
        out = subprocess.run(
            command, capture_output=True, text=True, timeout=seconds(30), check=True
        )
    runs: list[dict[str, Any]] = json.loads(out.stdout)
    return nics, runs


def on_disk(runs: list[dict[str, Any]]) -> dict[str, str]:
    """The files after every run, in order (a later run rewrites a file)."""
    files: dict[str, str] = {}
    for run in runs:
        files.update(run["files"])
    return files


def boot(
    lab: Lab,
    network_data: Mapping[str, Any],
    boot_mac: str,
    profile: RamdiskProfile,
    before: Callable[[Host], object] = lambda host: None,
) -> Booted:
    """A namespace with the host's NICs, configured by `profile`'s consumer from glean's files;
    `before` sees the namespace first (its NICs there, nothing configured yet)."""
    nics, runs = glean(network_data, boot_mac, profile)
    host = lab.host(nics)
    before(host)
    files = on_disk(runs)
    if profile is RamdiskProfile.GLEAN_EL10:
        log = netns_consumers.network_manager(lab, host, files)
    elif profile is RamdiskProfile.GLEAN_DEBIAN:
        log = netns_consumers.ifupdown(lab, host, files)[1]
    else:
        raise ValueError(f"no consumer on this machine reads {profile} files")
    return Booted(host, runs, files, log)


def settled(booted: Booted, timeout: float = 10.0) -> State:
    """The state once the kernel's duplicate detection is over (no address `tentative`)."""

    def done() -> State | None:
        state = booted.state()
        return None if any("tentative" in f for f in state.flags.values()) else state

    return eventually(done, timeout, "IPv6 duplicate address detection to end")
