"""The README's kubectl snippet works as written: it starts `dhcpless sandbox` in the
background, waits for its ready line, and the first `kubectl apply` then succeeds at once."""

from __future__ import annotations

import re
import subprocess
import sys
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
    script = "\n".join(["trap 'kill %1 2>/dev/null' EXIT", "set -e", *lines[:watch]])
    done = subprocess.run(
        ["bash", "-c", script],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=seconds(120),
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "baremetalhost.metal3.io/worker-0 created" in done.stdout, done.stdout
