"""`dhcpless sandbox` as a user runs it: a subprocess, kubectl (a client nobody here wrote),
`kubectl apply -f examples/`, and every example host (IPv4, dual-stack IPv6) reaches
`available` through glean's redhat writer run once per NIC, with the pre-allocated address
honoured, and so does the bonded host whose ramdisk gets its boot NIC alone (`storage-1`); the
bond+VLAN host (`storage-0`) stays paused, never booted, since the community ramdisk's per-NIC
glean dies on every bond.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dhcpless import keys
from tests.support.kubectl import kubectl_binary
from tests.support.sandbox_process import running_sandbox
from tests.support.waits import eventually, seconds

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def kubeconfig(tmp_path: Path) -> Iterator[Path]:
    with running_sandbox(tmp_path / "sandbox.kubeconfig") as path:
        yield path


def kubectl(config: Path, *args: str) -> str:
    done = subprocess.run(
        [str(kubectl_binary()), "--kubeconfig", str(config), *args],
        capture_output=True,
        text=True,
        timeout=seconds(60),
        check=True,
    )
    return done.stdout


def hosts(config: Path) -> dict[str, Any]:
    items = json.loads(kubectl(config, "get", "bmh", "-A", "-o", "json"))["items"]
    return {h["metadata"]["name"]: h for h in items}


EXPECTED = {
    **dict.fromkeys(["appliance-0", "edge-v6-0", "storage-1", "worker-0", "worker-1"], "available"),
    "storage-0": None,  # the bond: refused before release (glean per NIC dies on it)
}


@pytest.mark.kubectl
@pytest.mark.e2e
def test_examples_reach_available(kubeconfig: Path) -> None:
    kubectl(kubeconfig, "apply", "-f", str(REPO / "examples"))

    def states_now() -> dict[str, Any]:
        return {
            n: (h.get("status") or {}).get("provisioning", {}).get("state")
            for n, h in hosts(kubeconfig).items()
        }

    def settled() -> dict[str, Any] | None:
        states = states_now()
        return states if states == EXPECTED else None

    try:
        states = eventually(settled, 60, "every example host where it belongs")
    except AssertionError:
        states = states_now()
    assert states == EXPECTED
    address = kubectl(
        kubeconfig,
        "get",
        "ipaddress",
        "-n",
        "metal3-demo",
        "provisioning-v4-192-168-111-50",
        "-o",
        "jsonpath={.spec.claim.name}",
    )
    assert address == "worker-0-provisioning-v4"
    refused = _warnings(kubeconfig, "storage-0")
    assert any("bond-ports" in m and "boot NIC alone" in m for m in refused), refused
    assert keys.PAUSED_ANNOTATION in hosts(kubeconfig)["storage-0"]["metadata"]["annotations"]


def _warnings(config: Path, host: str) -> list[str]:
    """The Warning Events on a host, by kubectl."""
    listed = json.loads(kubectl(config, "get", "events", "-n", "metal3-demo", "-o", "json"))
    return [
        e["message"]
        for e in listed["items"]
        if e["involvedObject"]["name"] == host and e["type"] == "Warning"
    ]
