"""`dhcpless sandbox` as a user starts it: a subprocess on a free port that writes a kubeconfig.

Shared by the tests that drive the sandbox with kubectl, so each starts and stops it the same way
(the start waits for the kubeconfig line; the stop expects a clean exit within a scaled deadline).
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.support.waits import seconds


@contextmanager
def running_sandbox(kubeconfig: Path) -> Iterator[Path]:
    """A running `dhcpless sandbox --port 0 --kubeconfig KUBECONFIG`; yields the kubeconfig."""
    command = [sys.executable, "-m", "dhcpless.tools.cli", "sandbox", "--port", "0"]
    with subprocess.Popen(
        [*command, "--kubeconfig", str(kubeconfig)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    ) as process:
        try:
            assert process.stdout is not None
            lines = [process.stdout.readline() for _ in range(2)]
            assert any(line.startswith("kubeconfig:") for line in lines), lines
            yield kubeconfig
        finally:
            process.terminate()
            assert process.wait(timeout=seconds(20)) == 0
