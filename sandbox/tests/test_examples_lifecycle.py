"""`kubectl apply -f examples/ && kubectl delete -f examples/` against `dhcpless sandbox`.

Every host reaches `available` (but the bond+VLAN one, refused and paused: the ramdisk's
per-NIC glean dies on a bond) with addresses claimed; then deleting the examples must end with
the namespace gone: the IPAM stand-in releases the claims of a pool being deleted (as
ip-address-manager's `reconcileDelete` does), so no finalizer holds the namespace in
`Terminating`. The sandbox empties a namespace synchronously, so the later deletes of
`delete -f` find their objects already gone (NotFound); a cluster would still show them
terminating.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from conftest import REPO_ROOT
from tests.support.kubectl import KUBECTL, kubectl_binary
from tests.support.sandbox_process import running_sandbox
from tests.support.waits import eventually, seconds

pytestmark = [pytest.mark.kubectl, pytest.mark.e2e]


@pytest.fixture
def kubeconfig(tmp_path: Path) -> Iterator[Path]:
    kubectl_binary()
    with running_sandbox(tmp_path / "sandbox.kubeconfig") as path:
        yield path


def kubectl(config: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(KUBECTL), "--kubeconfig", str(config), *args],
        capture_output=True,
        text=True,
        timeout=seconds(45),
        check=False,
    )


def states(config: Path) -> list[str]:
    listed = json.loads(kubectl(config, "get", "bmh", "-A", "-o", "json").stdout)
    return [(h.get("status") or {}).get("provisioning", {}).get("state") for h in listed["items"]]


def namespaces(config: Path) -> dict[str, str]:
    listed = json.loads(kubectl(config, "get", "namespaces", "-o", "json").stdout)
    return {n["metadata"]["name"]: n["status"]["phase"] for n in listed["items"]}


def test_deleting_the_examples_leaves_no_namespace_terminating(kubeconfig: Path) -> None:
    examples = str(REPO_ROOT / "examples")
    applied = kubectl(kubeconfig, "apply", "-f", examples)
    assert applied.returncode == 0, applied.stderr
    settled = {"available", None}  # None: storage-0, refused, never registered
    eventually(lambda: set(states(kubeconfig)) == settled, 30, "every example settled")
    claims = kubectl(kubeconfig, "get", "ipclaims", "-n", "metal3-demo", "-o", "name").stdout
    assert claims.split(), "the hosts claimed no addresses: nothing would hold the namespace"
    deleted = kubectl(kubeconfig, "delete", "-f", examples)
    assert 'namespace "metal3-demo" deleted' in deleted.stdout
    others = [line for line in deleted.stderr.splitlines() if "(NotFound)" not in line]
    assert others == []
    eventually(lambda: "metal3-demo" not in namespaces(kubeconfig), 15, "the namespace gone")
    assert set(namespaces(kubeconfig).values()) == {"Active"}
