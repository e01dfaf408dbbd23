"""`dhcpless sandbox` says when it is ready, and is ready when it says so.

The README's snippet starts the sandbox in the background and waits for its ready line before
the first `kubectl apply`; this test does the same with a real subprocess and then uses the
kubeconfig at once: no retry, so a ready line printed too early fails it.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from kubernetes import client, config

from dhcpless_sandbox.demo.run import EXAMPLES_NAMESPACE, READY_LINE
from tests.support.waits import seconds

DHCPLESS = Path(sys.executable).parent / "dhcpless"


def _read_until_ready(process: subprocess.Popen[str]) -> list[str]:
    """stdout lines up to and including the ready line (fails if the process ends first)."""
    assert process.stdout is not None
    lines: list[str] = []
    for line in process.stdout:
        lines.append(line.rstrip("\n"))
        if line.startswith(READY_LINE):
            return lines
    pytest.fail(f"sandbox ended before it was ready; it printed {lines}")


@pytest.mark.slow
def test_ready_line_means_kubectl_can_start(tmp_path: Path) -> None:
    kubeconfig = tmp_path / "sandbox.kubeconfig"
    command = [str(DHCPLESS), "sandbox", "--port", "0", "--kubeconfig", str(kubeconfig)]
    with subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    ) as process:
        try:
            lines = _read_until_ready(process)
            api: Any = config.new_client_from_config(str(kubeconfig))  # type: ignore[no-untyped-call]
            found: Any = client.CustomObjectsApi(api).list_namespaced_custom_object(
                "metal3.io", "v1alpha1", EXAMPLES_NAMESPACE, "baremetalhosts"
            )
            api.close()
        finally:
            process.terminate()
            process.wait(timeout=seconds(20))
    assert lines[-1] == READY_LINE and any(line.startswith("kubeconfig:") for line in lines)
    assert found["items"] == []
