"""`dhcpless sandbox` serves every namespace, resync included (issue 25, item 10).

Its sources watch every namespace, so resync lists the hosts of every namespace too (the
cluster-wide layout with a selector that selects them all, `tools.demo.run.sandbox_settings`).
Seen before: a host in a namespace of its own, on a pool whose `spec.clusterName` names a
Cluster that does not exist (IPAM allocates nothing and says nothing,
`controllers/ippool_controller.go`), waited 4 minutes with no Warning. Now its
`ClaimUnanswered` Warning comes within two resync periods.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from kubernetes import client as k8s
from kubernetes import config as k8s_config

from dhcpless_sandbox.demo.run import sandbox_settings
from tests.support import objects, scenario
from tests.support.sandbox_process import running_sandbox
from tests.support.waits import eventually

SECOND = "tenant-b"
PERIOD = sandbox_settings(0).resync_seconds


def _in_second(obj: dict[str, Any]) -> dict[str, Any]:
    moved = copy.deepcopy(obj)
    moved["metadata"]["namespace"] = SECOND
    return moved


def _pool_of_a_missing_cluster() -> dict[str, Any]:
    pool = _in_second(objects.POOL4)
    pool["spec"]["clusterName"] = "not-there"
    return pool


@pytest.fixture
def api(tmp_path: Path) -> Iterator[k8s.ApiClient]:
    with running_sandbox(tmp_path / "sandbox.kubeconfig") as config:
        made: Any = k8s_config.new_client_from_config(str(config))  # type: ignore[no-untyped-call]
        try:
            yield made
        finally:
            made.close()


def _warnings(api: k8s.ApiClient, host: str) -> list[str]:
    listed = k8s.CoreV1Api(api).list_namespaced_event(SECOND)
    return [
        f"{e.reason}: {e.message}"
        for e in listed.items
        if e.involved_object.name == host and e.type == "Warning"
    ]


@pytest.mark.slow
def test_a_host_in_a_second_namespace_gets_its_warning_within_two_resync_periods(
    api: k8s.ApiClient,
) -> None:
    k8s.CoreV1Api(api).create_namespace(k8s.V1Namespace(metadata=k8s.V1ObjectMeta(name=SECOND)))
    scenario.create(api, _in_second(objects.data_template(objects.IPV4)))
    scenario.create(api, _pool_of_a_missing_cluster())
    started = time.monotonic()
    scenario.create(api, _in_second(objects.host("lonely-0")))

    def warned() -> list[str]:
        return [w for w in _warnings(api, "lonely-0") if w.startswith("ClaimUnanswered")]

    found = eventually(warned, 2 * PERIOD, "the ClaimUnanswered Warning of the second namespace")
    took = time.monotonic() - started
    print(f"Warning after {took:.1f}s (resync period {PERIOD:g}s)")
    assert f"Cluster {SECOND}/not-there exists (spec.clusterName)" in found[0]
