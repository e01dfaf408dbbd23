"""Run glean as the community ramdisk runs it: the early run, then one run per NIC.

The ramdisk does not run glean once over the machine. glean's `init/glean-early.sh` runs
`python-glean --skip-network --ssh --hostname` (no network), and `init/glean-udev.rules`
wants `glean@<name>.service` for every NIC whose `addr_assign_type` is 0; with NetworkManager
(diskimage-builder's `simple-init` installs glean `--use-nm`) that unit is `init/glean-nm@.service`:
`python-glean --use-nm --debug --interface %I`, skipped when `ifcfg-%I` already exists
(`ConditionPathExists`). DHCP fallback stays on. `--interface` prunes glean's
`get_sys_interfaces` to that one NIC, which is what breaks bonds (`write_redhat_interfaces`).

Each run calls glean's own `main` with that argv plus `--root` (the fake root) and `--noop`
(files are printed, not written). Three things are held away from this machine, nothing
else: the os-release glean reads (`is_keyfile_format`, the `--distro` default) is the fake
root's; `install.install` (which `write_dns_info` uses under `--use-nm`) only records; and the
`systemctl is-enabled systemd-resolved` probe answers "not enabled", as on the CentOS ramdisk.
Run as `python -m` it prints the runs as JSON (the subprocess mode).
"""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import logging
import os
import sys
import traceback
from collections.abc import Iterator, Sequence
from types import ModuleType
from typing import Any

EARLY = ("--skip-network", "--ssh", "--hostname")
"""`init/glean-early.sh`: hostname and keys only, before udev configures the NICs."""

_IFCFG = "/etc/sysconfig/network-scripts/ifcfg-"

DNS_FILES = ("/etc/resolv.conf", "/etc/NetworkManager/conf.d/nm-no-resolv-handling.conf")
"""The fixed paths `write_dns_info` writes (the second by `install.install`, under --use-nm)."""


def nic_argv(nic: str) -> tuple[str, ...]:
    """`init/glean-nm@.service` for one NIC."""
    return ("--use-nm", "--debug", "--interface", nic)


class _Os:
    """glean's view of `os`: the systemd-resolved probe says no; everything else is `os`."""

    def __getattr__(self, name: str) -> Any:
        return getattr(os, name)

    @staticmethod
    def system(command: str) -> int:
        return 1 if command.startswith("systemctl ") else os.system(command)


def run_all(root: str, nics: Sequence[str]) -> list[dict[str, Any]]:
    """The early run, then one run per NIC in udev's order; a run is {nic, code, error, files}."""
    glean = importlib.import_module("glean.cmd")
    written: dict[str, str] = {}
    runs = [_run(glean, root, None, EARLY)]
    for nic in nics:
        if f"{_IFCFG}{nic}" in written:  # glean-nm@.service's ConditionPathExists
            runs.append({"nic": nic, "code": 0, "error": "skipped", "files": {}})
            continue
        run = _run(glean, root, nic, nic_argv(nic))
        written.update(run["files"])
        runs.append(run)
    return runs


def _run(glean: ModuleType, root: str, nic: str | None, argv: Sequence[str]) -> dict[str, Any]:
    out, installed = io.StringIO(), dict[str, str]()
    with _held(glean, root, installed), contextlib.redirect_stdout(out):
        try:
            code, error = int(glean.main([*argv, "--root", root, "--noop"]) or 0), ""
        except SystemExit as stop:  # argparse
            code, error = int(stop.code or 0), "exit"
        except Exception as err:  # what the unit's process dies of: exit 1, nothing written
            code, error = 1, f"{type(err).__name__} in {_where(err)}"
    files = parse_noop(out.getvalue()) if code == 0 else {}
    return {"nic": nic, "code": code, "error": error, "files": files | installed}


def _where(err: BaseException) -> str:
    """glean's function the error came from (no values: they may be the host's data)."""
    frames = traceback.extract_tb(err.__traceback__)
    return next((f.name for f in reversed(frames) if "glean" in f.filename), "glean")


@contextlib.contextmanager
def _held(glean: ModuleType, root: str, installed: dict[str, str]) -> Iterator[None]:
    distro, install, real_os = glean.distro._distro, glean.install.install, vars(glean)["os"]

    def record(source: str, target: str, mode: str = "", replacements: Any = None) -> None:
        installed[target] = f"# installed from glean's {source}\n"

    glean.distro._distro = glean.distro.LinuxDistribution(
        include_lsb=False, include_uname=False, root_dir=root
    )
    glean.install.install = record
    setattr(glean, "os", _Os())  # noqa: B010 (mypy: a module has no attribute "os")
    quiet = logging.NullHandler()  # glean's `basicConfig` then leaves this process's logging be
    logging.root.addHandler(quiet)
    try:
        yield
    finally:
        logging.root.removeHandler(quiet)
        glean.distro._distro, glean.install.install = distro, install
        setattr(glean, "os", real_os)  # noqa: B010


def parse_noop(text: str) -> dict[str, str]:
    """glean --noop prints `### Write <path>` and then the file for every file it would write."""
    files: dict[str, str] = {}
    for chunk in text.split("### Write ")[1:]:
        path, _, content = chunk.partition("\n")
        files[path.strip()] = content
    return files


if __name__ == "__main__":
    json.dump(run_all(sys.argv[1], sys.argv[2:]), sys.stdout)
