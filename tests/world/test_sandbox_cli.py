"""`dhcpless sandbox` as a user runs it: a subprocess, kubectl (a client nobody here wrote),
`kubectl apply -f examples/`, and every example host (IPv4, dual-stack IPv6) reaches
`available` through glean's redhat writer run once per NIC, with the pre-allocated address
honoured; the bond+VLAN host (`storage-0`) hangs in `inspecting`, as it would on the community
ramdisk (glean's per-NIC run dies on every bond).
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

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
    **dict.fromkeys(["appliance-0", "edge-v6-0", "worker-0", "worker-1"], "available"),
    "storage-0": "inspecting",  # the bond: the ramdisk's per-NIC glean configures nothing
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
