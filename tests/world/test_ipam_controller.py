"""The IPAM stand-in against the sandbox API (metal3.md §d), through the official client.

Covers: claims fulfilled with IPAddress objects (name, spec, owners, labels, finalizers),
claim finalizer and `status.address`, pool `status.indexes`, exhaustion written to
`errorMessage` and never retried, release on deletion only when IPAM's finalizer is the last
one, and reuse of the released address; a pool being deleted still serves new claims until
its last allocation is released (`reconcileDelete` runs the same `UpdateAddresses`).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any, cast

import pytest
from kubernetes import client
from kubernetes.client.exceptions import ApiException

from dhcpless import keys
from dhcpless_sandbox.standins.ipam import IPAMController
from dhcpless_sandbox.standins.ipam_state import PoolState
from tests.support.waits import eventually, seconds

NS, G, V = "default", keys.IPAM_GROUP, keys.IPAM_VERSION


@pytest.fixture
def controller(api: client.ApiClient) -> Iterator[IPAMController]:
    """The pool `pool` (10.0.0.1 and the pre-allocated 10.0.0.2) and a running controller."""
    custom = client.CustomObjectsApi(api)
    pool = {
        "apiVersion": f"{G}/{V}",
        "kind": "IPPool",
        "metadata": {"name": "pool", "namespace": NS},
        "spec": {
            "namePrefix": "pool",
            "pools": [{"start": "10.0.0.1", "end": "10.0.0.2"}],
            "prefix": 24,
            "gateway": "10.0.0.254",
            "preAllocations": {"pinned": "10.0.0.2"},
        },
    }
    custom.create_namespaced_custom_object(G, V, NS, "ippools", pool)
    running = IPAMController(api)
    running.start()
    yield running
    running.stop()


@pytest.fixture
def ipam(api: client.ApiClient, controller: IPAMController) -> client.CustomObjectsApi:
    return client.CustomObjectsApi(api)


def claim(custom: client.CustomObjectsApi, name: str, finalizers: list[str] | None = None) -> None:
    body = {
        "apiVersion": f"{G}/{V}",
        "kind": "IPClaim",
        "metadata": {
            "name": name,
            "namespace": NS,
            "labels": {"host": name},
            "finalizers": finalizers or [],
        },
        "spec": {"pool": {"name": "pool", "namespace": NS}},
    }
    custom.create_namespaced_custom_object(G, V, NS, "ipclaims", body)


def get(custom: client.CustomObjectsApi, plural: str, name: str) -> dict[str, Any] | None:
    try:
        return cast(dict[str, Any], custom.get_namespaced_custom_object(G, V, NS, plural, name))
    except ApiException as error:
        if error.status == 404:
            return None
        raise


def status(custom: client.CustomObjectsApi, name: str) -> dict[str, Any]:
    return (get(custom, "ipclaims", name) or {}).get("status") or {}


def test_claim_is_fulfilled(ipam: client.CustomObjectsApi) -> None:
    claim(ipam, "a")
    assert eventually(lambda: status(ipam, "a").get("address")) == {
        "name": "pool-10-0-0-1",
        "namespace": NS,
    }
    address = get(ipam, "ipaddresses", "pool-10-0-0-1")
    assert address is not None
    assert address["spec"]["address"] == "10.0.0.1"
    assert address["spec"]["prefix"] == 24
    assert address["spec"]["gateway"] == "10.0.0.254"
    assert address["spec"]["claim"]["name"] == "a"
    assert address["metadata"]["finalizers"] == [keys.IPAM_ADDRESS_FINALIZER]
    assert address["metadata"]["labels"] == {"host": "a"}
    assert [o["kind"] for o in address["metadata"]["ownerReferences"]] == ["IPPool", "IPClaim"]
    assert keys.IPAM_CLAIM_FINALIZER in (get(ipam, "ipclaims", "a") or {})["metadata"]["finalizers"]

    def indexes() -> Any:
        return ((get(ipam, "ippools", "pool") or {}).get("status") or {}).get("indexes")

    assert eventually(indexes) == {"a": "10.0.0.1"}


def test_preallocation_and_exhaustion(ipam: client.CustomObjectsApi) -> None:
    claim(ipam, "pinned")
    assert eventually(lambda: status(ipam, "pinned").get("address"))["name"] == "pool-10-0-0-2"
    claim(ipam, "a")
    eventually(lambda: status(ipam, "a").get("address"))
    claim(ipam, "b")
    assert eventually(lambda: status(ipam, "b").get("errorMessage")) == "Exhausted IP Pools"
    ipam.delete_namespaced_custom_object(G, V, NS, "ipclaims", "a")
    eventually(lambda: get(ipam, "ipclaims", "a") is None)
    assert eventually(lambda: get(ipam, "ipaddresses", "pool-10-0-0-1") is None)
    assert status(ipam, "b") == {"errorMessage": "Exhausted IP Pools"}  # never retried
    claim(ipam, "c")
    assert eventually(lambda: status(ipam, "c").get("address"))["name"] == "pool-10-0-0-1"


def test_release_waits_for_other_finalizers(ipam: client.CustomObjectsApi) -> None:
    claim(ipam, "a", finalizers=["example.com/ours"])
    eventually(lambda: status(ipam, "a").get("address"))
    ipam.delete_namespaced_custom_object(G, V, NS, "ipclaims", "a")
    eventually(
        lambda: (get(ipam, "ipclaims", "a") or {}).get("metadata", {}).get("deletionTimestamp")
    )
    assert get(ipam, "ipaddresses", "pool-10-0-0-1") is not None
    patch = {"metadata": {"finalizers": [keys.IPAM_CLAIM_FINALIZER]}}
    ipam.patch_namespaced_custom_object(G, V, NS, "ipclaims", "a", patch)
    assert eventually(lambda: get(ipam, "ipclaims", "a") is None)
    assert get(ipam, "ipaddresses", "pool-10-0-0-1") is None


def test_a_deleting_pool_keeps_serving(
    ipam: client.CustomObjectsApi, controller: IPAMController, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ip-address-manager `controllers/ippool_controller.go` `reconcileDelete`: the pool waits
    on its finalizer while a claim holds an address, and serves a new claim meanwhile.

    `b` is created once the controller has begun a reconcile that saw the deletion: one begun
    before it (the pool's own status write queues one) still counts the pre-allocated address
    as in use, and would find the pool exhausted for `b`, as upstream would from its cache."""
    deleting = threading.Event()
    finish = controller._finish_pool_deletion

    def seen(pool: dict[str, Any], state: PoolState) -> float | None:
        deleting.set()
        return finish(pool, state)

    monkeypatch.setattr(controller, "_finish_pool_deletion", seen)
    claim(ipam, "a")
    eventually(lambda: status(ipam, "a").get("address"))
    ipam.delete_namespaced_custom_object(G, V, NS, "ippools", "pool")
    assert deleting.wait(seconds(10)), "the controller never reconciled the deleting pool"
    claim(ipam, "b")  # `getIndexes`: a deleting pool's pre-allocations hold no address
    assert eventually(lambda: status(ipam, "b").get("address"))["name"] == "pool-10-0-0-2"
    for name in ("a", "b"):
        ipam.delete_namespaced_custom_object(G, V, NS, "ipclaims", name)
    assert eventually(lambda: get(ipam, "ippools", "pool") is None)
