"""The README's kubectl snippet works as written: it starts `dhcpless sandbox` in the
background, waits for its ready line, and the first `kubectl apply` then succeeds at once."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.waits import seconds

REPO = Path(__file__).resolve().parents[2]
VENV = Path(sys.executable).parent.parent


def _snippet() -> list[str]:
    """The lines of the README's shell block that starts the sandbox."""
    blocks = re.findall(r"```sh\n(.*?)```", (REPO / "README.md").read_text(), re.S)
    (block,) = [b for b in blocks if "dhcpless sandbox" in b]
    return [line.split("  #")[0].strip() for line in block.splitlines() if line.strip()]


@pytest.mark.slow
def test_the_readme_snippet_waits_for_the_sandbox(tmp_path: Path) -> None:
    lines = _snippet()
    assert any(line.startswith("until ") for line in lines), lines
    (tmp_path / ".venv").symlink_to(VENV)
    (tmp_path / "examples").symlink_to(REPO / "examples")
    watch = next(i for i, line in enumerate(lines) if " -w" in line)
    out, err = tmp_path / "snippet.out", tmp_path / "snippet.err"
    with out.open("wb") as stdout, err.open("wb") as stderr:
        # A session of its own, output to files: whatever the snippet leaves running is
        # stopped by its process group below, and cannot hold this test's pipes open.
        shell = subprocess.Popen(
            ["bash", "-c", "\n".join(["set -e", *lines[:watch]])],
            cwd=tmp_path, stdout=stdout, stderr=stderr, start_new_session=True,
        )  # fmt: skip
    try:
        returncode = shell.wait(timeout=seconds(120))
    finally:
        _stop_group(shell.pid)
    said = out.read_text() + err.read_text()
    assert returncode == 0, said
    assert "baremetalhost.metal3.io/worker-0 created" in out.read_text(), said


def _stop_group(group: int) -> None:
    """SIGTERM to the snippet's process group (the backgrounded sandbox stops its world on
    it), then wait until no live process of the group is left; SIGKILL only past the
    deadline, and then the test fails: the sandbox must stop on SIGTERM."""
    if not _live(group):
        return
    os.killpg(group, signal.SIGTERM)
    deadline = time.monotonic() + seconds(60)
    while _live(group) and time.monotonic() < deadline:
        time.sleep(0.1)
    if _live(group):
        os.killpg(group, signal.SIGKILL)
        pytest.fail("the sandbox the README snippet started did not stop on SIGTERM")


def _live(group: int) -> bool:
    """Whether a process of `group` still runs (proc(5) stat: state, ppid, pgrp). Zombies do
    not count: an orphan's parent may be a PID 1 that never reaps."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            state, _, pgrp = stat.read_text().rsplit(")", 1)[1].split()[:3]
        except (OSError, ValueError):
            continue
        if int(pgrp) == group and state != "Z":
            return True
    return False
