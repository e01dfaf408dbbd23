"""The demo's display: a live progress bar and the per-host table on a terminal (a real pty),
plain lines off it, and `--json` carrying one row per host."""

from __future__ import annotations

import io
import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from dhcpless_sandbox.demo.report import LEGEND, HostRow, Progress
from tests.support.waits import seconds

DHCPLESS = Path(sys.executable).parent / "dhcpless"
HOSTS = 3
ESC = "\x1b["


def _in_pty(*args: str) -> tuple[int, str]:
    """Run `dhcpless` with stdout and stderr on a pseudo-terminal; its exit code and output."""
    leader, follower = pty.openpty()
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "120"}
    with subprocess.Popen(
        [str(DHCPLESS), *args], stdout=follower, stderr=follower, stdin=follower, env=env
    ) as process:
        os.close(follower)
        chunks: list[bytes] = []
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # EIO: the child closed the terminal
                break
            if not chunk:
                break
            chunks.append(chunk)
        os.close(leader)
        code = process.wait(timeout=seconds(120))
    return code, b"".join(chunks).decode(errors="replace")


@pytest.mark.slow
def test_on_a_terminal_the_demo_draws_a_live_bar_and_a_table() -> None:
    code, output = _in_pty("demo", "--hosts", str(HOSTS))
    assert code == 0, output[-3000:]
    assert ESC in output and "━" in output, output[-3000:]
    assert f"{HOSTS}/{HOSTS}" in output
    bar = output.index("━")
    assert output.index("broker: sync delivery") < bar  # a setting, said before the results
    assert output.index(LEGEND) < bar
    table = output[output.index("HOST") :].splitlines()
    assert [line.split()[0] for line in table[1 : HOSTS + 1]] == [
        f"host-{i:03d}" for i in range(HOSTS)
    ]


@pytest.mark.slow
def test_off_a_terminal_progress_is_plain_lines_and_json_has_the_rows() -> None:
    done = subprocess.run(
        [str(DHCPLESS), "demo", "--hosts", str(HOSTS), "--json"],
        capture_output=True,
        text=True,
        timeout=seconds(120),
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert ESC not in done.stderr and "\r" not in done.stderr
    progress = [line for line in done.stderr.splitlines() if f"hosts {HOSTS}" in line]
    assert progress and progress[-1].split()[0].endswith("s")
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    rows = summary["rows"]
    assert [row["name"] for row in rows] == [f"host-{i:03d}" for i in range(HOSTS)]
    assert {row["state"] for row in rows} == {"available"} and all(row["ip"] for row in rows)
    assert sum(not row["paused"] for row in rows) == summary["unpaused"]


def test_hosts_without_a_bmo_state_are_a_named_and_explained_bucket() -> None:
    stream = io.StringIO()
    rows = [
        HostRow("a", "", "-", True),
        HostRow("b", "", "-", True),
        HostRow("c", "", "inspecting", False),
    ]
    Progress(stream).show(rows, 1.0, final=True)
    legend, line = stream.getvalue().splitlines()
    assert legend == LEGEND and "waiting: no BMO state yet" in legend
    assert "[inspecting 1, waiting 2]" in line and " - " not in line
