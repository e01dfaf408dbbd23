"""A `clusterName` pool in the IPAM stand-in, as ip-address-manager's IPPool controller
reconciles it (`controllers/ippool_controller.go` `Reconcile`, `IsPaused`;
`ipam/ippool_manager.go` `SetClusterOwnerRef`): labelled with its Cluster and provider, owned
by the Cluster once it exists (not as controller), nothing served while the Cluster is missing
or while the Cluster or the pool is paused, served once the pause is lifted.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from kubernetes import client

from dhcpless import keys
from dhcpless_sandbox.standins import ipam_cluster
from dhcpless_sandbox.standins.ipam import IPAMController
from tests.support.waits import eventually, stays

from .test_ipam_controller import NS, G, V, claim, get, status

CAPI = "cluster.x-k8s.io"
QUIET = 1.0
"""Seconds in which a held pool must serve nothing (IPAM answers within milliseconds)."""


def _pool(annotations: dict[str, str] | None = None) -> dict[str, Any]:
    return {
        "apiVersion": f"{G}/{V}",
        "kind": "IPPool",
        "metadata": {"name": "pool", "namespace": NS, "annotations": annotations or {}},
        "spec": {"clusterName": "c1", "namePrefix": "pool", "prefix": 24,
                 "pools": [{"start": "10.0.0.1", "end": "10.0.0.2"}]},
    }  # fmt: skip


def _cluster(custom: client.CustomObjectsApi, paused: bool = False) -> dict[str, Any]:
    body = {"apiVersion": f"{CAPI}/v1beta2", "kind": "Cluster",
            "metadata": {"name": "c1", "namespace": NS}, "spec": {"paused": paused}}  # fmt: skip
    made: Any = custom.create_namespaced_custom_object(CAPI, "v1beta2", NS, "clusters", body)
    return dict(made)


@pytest.fixture
def custom(api: client.ApiClient) -> Iterator[client.CustomObjectsApi]:
    controller = IPAMController(api)
    controller.start()
    yield client.CustomObjectsApi(api)
    controller.stop()


def test_a_pool_is_labelled_and_owned_by_its_cluster(custom: client.CustomObjectsApi) -> None:
    cluster = _cluster(custom)
    custom.create_namespaced_custom_object(G, V, NS, "ippools", _pool())
    claim(custom, "a")
    assert eventually(lambda: status(custom, "a").get("address"))["name"] == "pool-10-0-0-1"
    meta = (get(custom, "ippools", "pool") or {})["metadata"]
    assert meta["labels"] == {ipam_cluster.CLUSTER_NAME_LABEL: "c1",
                              ipam_cluster.PROVIDER_LABEL: "ipam-metal3"}  # fmt: skip
    [owner] = meta["ownerReferences"]
    assert (owner["kind"], owner["name"], owner["uid"]) == (
        "Cluster",
        "c1",
        cluster["metadata"]["uid"],
    )
    assert not owner.get("controller")


@pytest.mark.parametrize(
    ("cluster", "annotations"),
    [
        pytest.param("missing", {}, id="cluster-missing"),
        pytest.param("paused", {}, id="cluster-paused"),
        pytest.param("running", {ipam_cluster.PAUSED_ANNOTATION: ""}, id="pool-paused"),
    ],
)
def test_a_held_pool_serves_nothing(
    custom: client.CustomObjectsApi, cluster: str, annotations: dict[str, str]
) -> None:
    if cluster != "missing":
        _cluster(custom, paused=cluster == "paused")
    custom.create_namespaced_custom_object(G, V, NS, "ippools", _pool(annotations))
    claim(custom, "a")
    stays(lambda: status(custom, "a") == {}, QUIET, "the claim unanswered")
    pool = get(custom, "ippools", "pool") or {}
    assert keys.IPAM_POOL_FINALIZER not in (pool["metadata"].get("finalizers") or [])


def test_lifting_the_pools_pause_serves_it(custom: client.CustomObjectsApi) -> None:
    _cluster(custom)
    custom.create_namespaced_custom_object(
        G, V, NS, "ippools", _pool({ipam_cluster.PAUSED_ANNOTATION: ""})
    )
    claim(custom, "a")
    stays(lambda: status(custom, "a") == {}, QUIET, "the claim unanswered")
    lifted = {"metadata": {"annotations": {ipam_cluster.PAUSED_ANNOTATION: None}}}
    custom.patch_namespaced_custom_object(G, V, NS, "ippools", "pool", lifted)
    assert eventually(lambda: status(custom, "a").get("address"))["name"] == "pool-10-0-0-1"
