"""The CAPI in-cluster IPAM stand-in and our reader, at the versions Cluster API serves.

Cluster API serves `ipam.cluster.x-k8s.io/v1beta2` (v1beta1 deprecated, and the only version of
older installations). `kube.api.capi.get_capi_claim` reads v1beta2 and falls back to v1beta1 only
when v1beta2 is not served; a claim the chain wrote at v1beta1 is read either way. The in-cluster
provider writes no conditions on a claim: an exhausted pool leaves the claim as it was (no
address, no `Ready=False`) and serves it once the pool has room.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from kubernetes import client

from dhcpless import keys
from dhcpless.errors import Gone
from dhcpless.kube import Kube
from dhcpless.kube.api import resources, versions
from dhcpless.kube.api.capi import get_capi_claim
from dhcpless.models import IPAddressClaim
from dhcpless_sandbox.apiserver.server import SandboxServer
from dhcpless_sandbox.standins.capi_ipam import (
    POOL_PLURAL,
    POOL_VERSION,
    CapiIPAMController,
    load_crds,
)
from sandbox.tests.helpers import Custom
from tests.support.waits import eventually, stays

NS = "default"
GROUP = keys.CAPI_IPAM_GROUP
VERSIONS = [
    pytest.param(("v1beta2", "v1beta1"), id="v1beta2-served"),
    pytest.param(("v1beta1",), id="v1beta1-only"),
]


@pytest.fixture
def server() -> Iterator[SandboxServer]:
    with SandboxServer() as srv:
        yield srv


def _claim(name: str, version: str = "v1beta1") -> dict[str, Any]:
    ref = {"apiGroup": GROUP, "kind": "InClusterIPPool", "name": "pool"}
    return {"apiVersion": f"{GROUP}/{version}", "kind": "IPAddressClaim",
            "metadata": {"name": name, "namespace": NS}, "spec": {"poolRef": ref}}  # fmt: skip


@pytest.mark.parametrize("served", VERSIONS)
def test_reader_reads_v1beta2_or_falls_back(server: SandboxServer, served: tuple[str, ...]) -> None:
    load_crds(server, served)
    with server.api_client() as api:
        client.CustomObjectsApi(api).create_namespaced_custom_object(
            GROUP, "v1beta1", NS, "ipaddressclaims", _claim("c1")
        )
        found = get_capi_claim(Kube(api), NS, "c1")
        assert (found.metadata.name, found.spec.pool_ref.name) == ("c1", "pool")
        assert found.api_version == f"{GROUP}/{served[0]}"
        with pytest.raises(Gone):
            get_capi_claim(Kube(api), NS, "absent")


def _pool(addresses: list[str]) -> dict[str, Any]:
    return {"apiVersion": f"{GROUP}/{POOL_VERSION}", "kind": "InClusterIPPool",
            "metadata": {"name": "pool", "namespace": NS},
            "spec": {"addresses": addresses, "prefix": 24, "gateway": "10.9.0.1"}}  # fmt: skip


def test_an_exhausted_pool_is_a_silent_retry(server: SandboxServer) -> None:
    load_crds(server)
    with server.api_client() as api:
        custom = Custom(api)
        custom.create_namespaced_custom_object(
            GROUP, POOL_VERSION, NS, POOL_PLURAL, _pool(["10.9.0.5"])
        )
        for name in ("c1", "c2"):
            custom.create_namespaced_custom_object(
                GROUP, "v1beta2", NS, "ipaddressclaims", _claim(name, "v1beta2")
            )
        controller = CapiIPAMController(server.api_client())
        controller.start()
        try:

            def status(name: str) -> dict[str, Any]:
                found = custom.get_namespaced_custom_object(
                    GROUP, "v1beta2", NS, "ipaddressclaims", name
                )
                return dict(found.get("status") or {})

            eventually(lambda: status("c1").get("addressRef"), 30, "c1 served")
            stays(lambda: status("c2") == {}, 1.5, "nothing written on the exhausted claim")
            custom.patch_namespaced_custom_object(
                GROUP, POOL_VERSION, NS, POOL_PLURAL, "pool",
                {"spec": {"addresses": ["10.9.0.5", "10.9.0.6"]}},
            )  # fmt: skip
            eventually(lambda: status("c2").get("addressRef"), 30, "c2 served once there is room")
            assert "conditions" not in status("c1") and "conditions" not in status("c2")
        finally:
            controller.stop()


@pytest.mark.parametrize("served", VERSIONS)
def test_the_chain_writes_and_lists_at_v1beta2_or_falls_back(
    server: SandboxServer, served: tuple[str, ...]
) -> None:
    """CAPI marks `ipam.cluster.x-k8s.io/v1beta1` deprecated (storage is v1beta2): the chain's
    creates, lists and IPAddress reads use v1beta2 when served, v1beta1 only when it is not
    (`kube.api.versions`, one discovery per server)."""
    load_crds(server, served)
    versions.forget()
    with server.api_client() as api:
        kube = Kube(api)
        claim = IPAddressClaim.from_k8s(_claim("c2"))
        made = kube.create_capi_claim(claim)
        listed = kube.list_capi_claims(NS, "")
        assert made.api_version == f"{GROUP}/{served[0]}"
        assert [(c.metadata.name, c.api_version) for c in listed] == [("c2", made.api_version)]
        assert versions.preferred(api, resources.CAPI_IPAM_CLAIMS) == served[0]
