"""The inspection ramdisk's network boot: glean on the host's network data, on a fake root.

Exists so BMO's stand-in judges network data the way a real host would. A temporary root holds
the config drive's `network_data.json`, a `/sys/class/net` with the boot NIC
(`spec.bootMACAddress`) and every other NIC the data names, and the os-release of the declared
ramdisk (`RamdiskProfile`): CentOS Stream 9 or 10 (glean's redhat writer, ifcfg or keyfiles,
`is_keyfile_format`) or Debian. glean then runs as that ramdisk runs it (`glean_runs`: the
early run, then once per NIC), in a subprocess or in this process, and `ramdisk_judge` says
whether every NIC came up with every address. An nmstate ramdisk does not run glean: its
boot NIC gets what the data claims for it.
"""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
import tempfile
import threading
import warnings
from collections.abc import Mapping
from enum import StrEnum
from pathlib import Path
from types import ModuleType
from typing import Any

from dhcpless import keys
from dhcpless.keys import DEFAULT_PROFILE, RamdiskProfile
from dhcpless_sandbox.standins import fake_root, glean_runs
from dhcpless_sandbox.standins.boot_claims import claimed_on_boot_nic, judge
from dhcpless_sandbox.standins.ifupdown import BootResult
from dhcpless_sandbox.standins.ramdisk_judge import judge_runs, lost

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


def ramdisk_boot(
    network_data: Mapping[str, Any],
    boot_mac: str,
    mode: GleanMode = GleanMode.SUBPROCESS,
    profile: RamdiskProfile = DEFAULT_PROFILE,
) -> BootResult:
    """Boot a fake ramdisk with `network_data` as its config drive; did every NIC come up?"""
    boot_mac = boot_mac.lower()
    if not profile.runs_glean:
        return judge(_claimed(network_data, boot_mac), _claimed(network_data, boot_mac), "boot NIC")
    with tempfile.TemporaryDirectory(prefix="ramdisk-") as root:
        nics = fake_root.build(Path(root), network_data, boot_mac, profile)
        try:
            runs = _run_glean(root, list(nics.values()), mode)
        except GleanFailed as err:  # the runner itself, not glean on this data
            return BootResult((), f"the ramdisk's glean did not run: {err}")
    return judge_runs(network_data, runs, (boot_mac, nics[boot_mac]), profile.redhat, nics)


def secret_profile(secret: Mapping[str, Any] | None) -> RamdiskProfile:
    """The ramdisk a Secret's data is for: what we recorded on it, else the fleet default (the
    sandbox's fleet runs the community ramdisk)."""
    annotations = ((secret or {}).get("metadata") or {}).get("annotations") or {}
    try:
        return RamdiskProfile(annotations.get(keys.RAMDISK_PROFILE_ANNOTATION, DEFAULT_PROFILE))
    except ValueError:
        return DEFAULT_PROFILE


def writer_loses(
    network_data: Mapping[str, Any],
    boot_mac: str,
    mode: GleanMode = GleanMode.SUBPROCESS,
    profile: RamdiskProfile = DEFAULT_PROFILE,
) -> str | None:
    """What the `profile` ramdisk's writer, run per NIC, loses of `network_data` (None:
    nothing; an nmstate ramdisk runs no glean). The ramdisk rules are held to this."""
    if not profile.runs_glean:
        return None
    with tempfile.TemporaryDirectory(prefix="ramdisk-") as root:
        nics = fake_root.build(Path(root), network_data, boot_mac.lower(), profile)
        runs = _run_glean(root, list(nics.values()), mode)
        return lost(network_data, runs, profile.redhat, nics)


def _claimed(network_data: Mapping[str, Any], boot_mac: str) -> tuple[str, ...]:
    return claimed_on_boot_nic(network_data, boot_mac)


def _run_glean(root: str, nics: list[str], mode: GleanMode) -> list[dict[str, Any]]:
    """`glean_runs.run_all`, in a subprocess (its JSON on stdout) or in this process."""
    if mode is GleanMode.SUBPROCESS:
        command = [sys.executable, "-m", glean_runs.__name__, root, *nics]
        out = subprocess.run(
            command, capture_output=True, text=True, check=False, timeout=_GLEAN_TIMEOUT
        )
        if out.returncode != 0:
            raise GleanFailed((out.stderr.strip().splitlines() or ["no output"])[-1])
        runs: list[dict[str, Any]] = json.loads(out.stdout)
        return runs
    require_glean()
    with _IN_PROCESS, warnings.catch_warnings():
        warnings.simplefilter("ignore", ResourceWarning)  # glean never closes what it opens
        warnings.simplefilter("ignore", DeprecationWarning)  # its `distro.linux_distribution`
        return glean_runs.run_all(root, nics)
