"""Network namespaces for the netns tier: a host per namespace, its NICs veths on one switch.

A `Lab` makes namespaces named `<PREFIX><n>` (the test process's id in the prefix, so parallel
workers and a leftover of a killed run never collide) and one switch namespace with a bridge,
`br0`. A host's NICs are veths created inside its namespace with the host's MACs and the names
the ramdisk's glean gives them (`fake_root.build`); their peers are ports of the bridge. Every
process started through the lab and every namespace it made (with the veths in it) is removed
when the lab closes, on failure too. Nothing is sent outside these namespaces: the machine's own
namespace only runs the `ip` commands.

The kernel's view is read back with `ip -j addr` and `ip -j route` (both families).
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any

from tests.support.waits import seconds

PREFIX = f"m3dl-{os.getpid()}-"
"""Every namespace this process makes starts so (`ip netns list` shows whose they are)."""
_NUMBERS = itertools.count()
_COMMAND_TIMEOUT = 10.0
DAD_RETRANS_MS = 100
"""The kernel's IPv6 DAD waits up to a second before its probe (`router_solicitation_delay`,
made 0 here) and one retransmission time (1 s by default) for an answer. On a veth an answer
takes microseconds, so a host's NICs wait 0.1 s (VLANs and bonds a consumer makes keep the
kernel's defaults): the detection is the kernel's own, only shorter (a table of IPv6 rows
would otherwise wait 1-2 s a row)."""
BRIDGE = "br0"
"""The switch namespace's bridge: every host's NICs are its ports, so hosts share one wire."""


def ip(*args: str, timeout: float = _COMMAND_TIMEOUT) -> str:
    """`ip ARGS`; a failure names the command and what `ip` said."""
    done = subprocess.run(
        ["ip", *args], capture_output=True, text=True, timeout=seconds(timeout), check=False
    )
    if done.returncode:
        raise RuntimeError(f"ip {' '.join(args)}: {done.stderr.strip()}")
    return done.stdout


def cannot_run() -> str | None:
    """Why this machine cannot run the tier at all (not root, no namespace can be made: a
    container without CAP_SYS_ADMIN), else None."""
    if os.geteuid() != 0:
        return "the netns tier needs root (network namespaces, veths, mounts)"
    if shutil.which("ip") is None or shutil.which("unshare") is None:
        return "the netns tier needs `ip` (iproute2) and `unshare` (util-linux)"
    name = f"{PREFIX}probe"
    for argv in (["ip", "netns", "add", name], ["ip", "netns", "del", name],
                 ["unshare", "--mount", "true"]):  # fmt: skip
        probe = subprocess.run(argv, capture_output=True, text=True, check=False)
        if probe.returncode:
            return f"`{' '.join(argv[:3])}` does not work here: {probe.stderr.strip()}"
    return None


@dataclass
class Host:
    """One host's namespace: `nics` maps each NIC's MAC to its name inside."""

    name: str
    nics: dict[str, str]

    def run(self, argv: Sequence[str], timeout: float = _COMMAND_TIMEOUT) -> str:
        """`argv` inside this namespace (`ip netns exec`), its output; a failure raises."""
        done = subprocess.run(
            ["ip", "netns", "exec", self.name, *argv],
            capture_output=True,
            text=True,
            timeout=seconds(timeout),
            check=False,
        )
        if done.returncode:
            raise RuntimeError(f"{argv[0]} in {self.name} exited {done.returncode}: {done.stderr}")
        return done.stdout

    def links(self) -> list[dict[str, Any]]:
        """`ip -j addr`: every interface with its addresses and flags."""
        found: list[dict[str, Any]] = json.loads(ip("-n", self.name, "-j", "addr") or "[]")
        return found

    def routes(self) -> list[dict[str, Any]]:
        """`ip -j route` of both families, main table."""
        found: list[dict[str, Any]] = []
        for family in ("-4", "-6"):
            found += json.loads(ip("-n", self.name, "-j", family, "route") or "[]")
        return found


@dataclass
class Lab:
    """The namespaces and processes of one test; `close` (or leaving `with`) removes them."""

    work: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="m3dl-")))
    """Short (a bus socket's path must fit 108 bytes); removed at `close`."""
    namespaces: list[str] = field(default_factory=list)
    processes: list[subprocess.Popen[bytes]] = field(default_factory=list)
    _switch: str = ""

    def __enter__(self) -> Lab:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, err: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def namespace(self, role: str) -> str:
        name = f"{PREFIX}{next(_NUMBERS)}-{role}"
        ip("netns", "add", name)
        self.namespaces.append(name)
        return name

    def switch(self) -> str:
        """The switch namespace with its bridge (made on first use; snooping off, no STP, so
        a port forwards at once and multicast reaches every port)."""
        if not self._switch:
            self._switch = self.namespace("sw")
            ip("-n", self._switch, "link", "add", BRIDGE, "type", "bridge", "mcast_snooping", "0")
            ip("-n", self._switch, "link", "set", BRIDGE, "up")
        return self._switch

    def host(self, nics: Mapping[str, str]) -> Host:
        """A namespace whose NICs (`nics`: MAC -> name) are veths, each a port of the bridge."""
        host = Host(self.namespace("host"), dict(nics))
        switch = self.switch()
        ip("-n", host.name, "link", "set", "lo", "up")
        for mac, nic in nics.items():
            port = f"p{next(_NUMBERS)}"
            ip("-n", host.name, "link", "add", "name", nic, "address", mac, "type", "veth",
               "peer", "name", port, "netns", switch)  # fmt: skip
            ip("-n", switch, "link", "set", port, "master", BRIDGE, "up")
            host.run(["sysctl", "-qw", *(f"net.ipv6.{key}={value}" for key, value in (
                (f"neigh.{nic}.retrans_time_ms", DAD_RETRANS_MS),
                (f"conf.{nic}.router_solicitation_delay", 0),
            ))])  # fmt: skip
        return host

    def spawn(self, argv: Sequence[str], log: Path, env: Mapping[str, str] | None = None) -> None:
        """A long-running process (a bus, a NetworkManager), its output in `log`; stopped at
        `close`, in its own process group so what it started goes with it."""
        with log.open("wb") as out:
            self.processes.append(
                subprocess.Popen(
                    list(argv),
                    stdout=out,
                    stderr=subprocess.STDOUT,
                    env=dict(env) if env is not None else None,
                    start_new_session=True,
                )
            )

    def stop_last(self) -> None:
        """Stop the process spawned last (a start that never got going, to be tried again)."""
        _stop(self.processes.pop())

    def close(self) -> None:
        """Stop our processes (TERM, then KILL past a deadline), then delete our namespaces."""
        for process in reversed(self.processes):
            _stop(process)
        self.processes.clear()
        for name in reversed(self.namespaces):
            _kill_left_in(name)
            subprocess.run(["ip", "netns", "del", name], capture_output=True, check=False)
        self.namespaces.clear()
        self._switch = ""
        shutil.rmtree(self.work, ignore_errors=True)


def _kill_left_in(namespace: str) -> None:
    """What a consumer left running in one of our namespaces (a DHCP client gone to the
    background keeps a deleted namespace alive): killed by its id."""
    pids = subprocess.run(
        ["ip", "netns", "pids", namespace],
        capture_output=True,
        text=True,
        timeout=seconds(_COMMAND_TIMEOUT),
        check=False,
    )
    for pid in pids.stdout.split():
        with contextlib.suppress(ProcessLookupError):
            os.kill(int(pid), signal.SIGKILL)


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):  # it may end between poll and kill
        os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=seconds(5))
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=seconds(5))
