"""IPAM's IPPool webhook in the sandbox (ip-address-manager
`internal/webhooks/v1alpha1/ippool_webhook.go`), one row per case it judges: pre-allocations out
of the ranges refused on create ("bonds", sic) and update; `namePrefix` never changed; a
shrink that leaves an address in use (`status.indexes`) outside every range refused, one that
keeps it allowed; IPAM's own status writes not judged.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest
from kubernetes import client
from kubernetes.client import ApiException

from dhcpless import keys
from dhcpless_sandbox.apiserver.server import SandboxServer
from dhcpless_sandbox.standins import ipam_webhook

from .helpers import status_of

JSON = dict[str, Any]
G, V, NS = keys.IPAM_GROUP, keys.IPAM_VERSION, "default"
POOL: JSON = {
    "apiVersion": f"{G}/{V}",
    "kind": "IPPool",
    "metadata": {"name": "pool", "namespace": NS},
    "spec": {
        "namePrefix": "pool",
        "pools": [{"start": "10.0.0.10", "end": "10.0.0.20"}],
        "prefix": 24,
    },
}
IN_USE = {"host-0-pool": "10.0.0.15"}


@pytest.fixture
def ipam(sandbox: SandboxServer, api_client: client.ApiClient) -> Iterator[client.CustomObjectsApi]:
    ipam_webhook.install(sandbox.api)
    yield client.CustomObjectsApi(api_client)


def _refusal(call: Any) -> str:
    with pytest.raises(ApiException) as caught:
        call()
    assert caught.value.status == 422
    message: str = status_of(caught.value)["message"]
    return message


def _pool(**spec: Any) -> JSON:
    pool = copy.deepcopy(POOL)
    pool["spec"] |= spec
    return pool


def test_create_refuses_a_pre_allocation_out_of_the_ranges(ipam: client.CustomObjectsApi) -> None:
    body = _pool(preAllocations={"h": "10.0.1.1"})
    said = _refusal(lambda: ipam.create_namespaced_custom_object(G, V, NS, "ippools", body))
    assert said == (
        'IPPool.ipam.metal3.io "pool" is invalid: spec.preAllocations: '
        'Invalid value: "10.0.1.1": is out of bonds of the pools given'
    )


@pytest.mark.parametrize(
    ("change", "refused"),
    [
        pytest.param({"namePrefix": "other"}, 'spec.namePrefix: Invalid value: "other": cannot be '
                     "modified", id="name-prefix-changed"),
        pytest.param({"pools": [{"start": "10.0.0.10", "end": "10.0.0.12"}]},
                     'spec.pools: Invalid value: "10.0.0.15": is in use but out of bounds of the '
                     "pools given", id="shrunk-below-an-address-in-use"),
        pytest.param({"pools": [{"subnet": "10.0.1.0/24"}]}, "is in use but out of bounds",
                     id="moved-to-another-subnet"),
        pytest.param({"preAllocations": {"h": "10.0.0.99"}}, 'Invalid value: "10.0.0.99": is out '
                     "of bounds of the pools given", id="pre-allocation-out-of-the-ranges"),
        pytest.param({"pools": [{"start": "10.0.0.14", "end": "10.0.0.16"}]}, None,
                     id="shrunk-around-the-address-in-use"),
        pytest.param({"pools": [{"subnet": "10.0.0.0/24"}]}, None, id="grown-to-the-subnet"),
        pytest.param({"gateway": "10.0.0.1"}, None, id="another-field"),
    ],
)  # fmt: skip
def test_update(ipam: client.CustomObjectsApi, change: JSON, refused: str | None) -> None:
    ipam.create_namespaced_custom_object(G, V, NS, "ippools", copy.deepcopy(POOL))
    ipam.patch_namespaced_custom_object_status(
        G, V, NS, "ippools", "pool", {"status": {"indexes": IN_USE}}
    )
    patch = {"spec": change}
    if refused is None:
        updated: Any = ipam.patch_namespaced_custom_object(G, V, NS, "ippools", "pool", patch)
        assert all(updated["spec"][k] == v for k, v in change.items())
        return
    said = _refusal(lambda: ipam.patch_namespaced_custom_object(G, V, NS, "ippools", "pool", patch))
    assert said.startswith('IPPool.ipam.metal3.io "pool" is invalid: ')
    assert refused in said


def test_ipams_status_writes_are_not_judged(ipam: client.CustomObjectsApi) -> None:
    """A status out of the ranges (an older spec's allocations) is IPAM's to write."""
    ipam.create_namespaced_custom_object(G, V, NS, "ippools", copy.deepcopy(POOL))
    status = {"status": {"indexes": {"old": "10.9.9.9"}}}
    written: Any = ipam.patch_namespaced_custom_object_status(G, V, NS, "ippools", "pool", status)
    assert written["status"]["indexes"] == {"old": "10.9.9.9"}
