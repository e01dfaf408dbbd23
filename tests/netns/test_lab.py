"""The lab cleans up after itself, on failure too: no namespace, veth, process or directory of
a test outlives it, including a process a consumer sent to the background (as `dhclient`
does), which would otherwise keep a deleted namespace alive."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.netns.conftest import skip_unless_possible
from tests.support.layouts import BOOT, OTHER
from tests.support.netns import PREFIX, Lab, ip
from tests.support.waits import eventually

pytestmark = pytest.mark.netns


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"  # a zombie has ended


def _two_in(namespace: str) -> list[int] | None:
    pids = [int(pid) for pid in ip("netns", "pids", namespace).split()]
    return pids if len(pids) == 2 else None


def test_a_failing_test_leaves_nothing_behind() -> None:
    skip_unless_possible()
    lab = Lab()
    with pytest.raises(RuntimeError, match="the test failed"), lab:
        host = lab.host({BOOT: "eth0", OTHER: "eth1"})
        lab.spawn(["ip", "netns", "exec", host.name, "sleep", "600"], lab.work / "sleep.log")
        host.run(["sh", "-c", "sleep 600 >/dev/null 2>&1 &"])  # gone to the background
        left = eventually(lambda: _two_in(host.name), 5, "both sleeps in the namespace")
        made, tracked = list(lab.namespaces), lab.processes[0].pid
        assert {BOOT, OTHER} <= {link["address"] for link in host.links()}
        raise RuntimeError("the test failed")
    remaining = {line.split()[0] for line in ip("netns", "list").splitlines() if line}
    assert not remaining & set(made)
    assert all(name.startswith(PREFIX) for name in made)
    eventually(lambda: not any(_alive(pid) for pid in [*left, tracked]), 5, "processes to end")
    assert not lab.work.exists()
