"""External IPAM in the embedded world: a template network drawing from a CAPI pool.

Through the whole world (event sources, broker, functions over HTTP, IPAM/CAPI-IPAM/BMO
stand-ins): host-registration creates an `IPAddressClaim` `<bmh>-<pool>` for the
`InClusterIPPool`, the CAPI stand-in serves it, the claim's event reaches ipclaim-fulfilment,
which renders from the CAPI IPAddress (address, prefix, gateway); the host is released and
reaches `available`. The pool has one address for two hosts: as Cluster API's in-cluster
provider, the stand-in writes no condition on the other host's claim (a silent retry), so the
chain's resync reports the unanswered claim with a Warning, and that host stays paused.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from typing import Any

import pytest
from kubernetes import client

from dhcpless import keys
from dhcpless.chain.predicates import answers
from dhcpless_sandbox.demo.inventory import create, host
from dhcpless_sandbox.runtime.world import World
from dhcpless_sandbox.runtime.world_settings import WorldSettings
from tests.support.waits import eventually

NS, POOL, CAPI = "demo", "ext", keys.CAPI_IPAM_GROUP
REF = {"name": POOL, "kind": "InClusterIPPool", "apiGroup": CAPI}
TEMPLATE = "metal3datatemplates.infrastructure.cluster.x-k8s.io/ext-tmpl"


def _objects() -> list[dict[str, Any]]:
    meta = {"name": POOL, "namespace": NS}
    capi_pool = {"addresses": ["192.168.50.20"], "prefix": 24, "gateway": "192.168.50.1"}
    nic = {"type": "phy", "id": "eno1", "macAddress": {"fromHostInterface": "eno1"}}
    route = {"network": "0.0.0.0", "prefix": 0, "gateway": {"fromPoolRef": REF}}
    network = {"id": "ext", "link": "eno1", "fromPoolRef": REF, "routes": [route]}
    data = {"links": {"ethernets": [nic]}, "networks": {"ipv4": [network]},
            "services": {"dns": ["192.168.50.53"]}}  # fmt: skip
    hosts = [host(i, NS) for i in range(2)]
    for obj in hosts:
        obj["metadata"]["annotations"][keys.TEMPLATE_REFERENCE_ANNOTATION] = TEMPLATE
    return [
        {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": NS}},
        {"apiVersion": f"{CAPI}/v1alpha2", "kind": "InClusterIPPool", "metadata": meta,
         "spec": capi_pool},
        {"apiVersion": f"{keys.CAPM3_GROUP}/{keys.CAPM3_VERSION}", "kind": "Metal3DataTemplate",
         "metadata": {"name": "ext-tmpl", "namespace": NS}, "spec": {"networkData": data}},
        *hosts,
    ]  # fmt: skip


@pytest.fixture
def world(monkeypatch: pytest.MonkeyPatch) -> Iterator[World]:
    monkeypatch.setattr(answers, "FRESH_SECONDS", 0.0)  # report an unanswered claim at once
    started = World(WorldSettings(resync_seconds=0.5, idle_seconds=0.5))
    started.start()
    yield started
    started.stop()


def _hosts(api: client.ApiClient) -> dict[str, dict[str, Any]]:
    listing = client.CustomObjectsApi(api).list_namespaced_custom_object(
        keys.BMO_GROUP, keys.BMO_VERSION, NS, "baremetalhosts"
    )
    assert isinstance(listing, dict)
    return {h["metadata"]["name"]: h for h in listing["items"]}


def _settled(api: client.ApiClient) -> tuple[str, str] | None:
    """(available host, host with a ClaimUnanswered Warning) once both are so."""
    states = {n: (h.get("status") or {}).get("provisioning", {}).get("state")
              for n, h in _hosts(api).items()}  # fmt: skip
    done = [n for n, s in states.items() if s == keys.ProvisioningState.AVAILABLE]
    failed = [n for n in states if _warnings(api, n)]
    return (done[0], failed[0]) if len(done) == 1 and len(failed) == 1 else None


def _warnings(api: client.ApiClient, name: str) -> list[str]:
    events = client.CoreV1Api(api).list_namespaced_event(NS).items
    return [
        e.message or ""
        for e in events
        if e.involved_object.name == name and e.reason == "ClaimUnanswered" and e.type == "Warning"
    ]


def _network_data(api: client.ApiClient, name: str) -> dict[str, Any]:
    secret = client.CoreV1Api(api).read_namespaced_secret(name + keys.SECRET_NAME_SUFFIX, NS)
    data: dict[str, Any] = json.loads(base64.b64decode((secret.data or {})["networkData"]))
    return data


def test_capi_pool_host_reaches_available_and_exhaustion_is_reported(world: World) -> None:
    api = world.api_client()
    create(api, _objects())
    ready, failed = eventually(lambda: _settled(api), timeout=30.0)
    network = _network_data(api, ready)["networks"][0]
    assert (network["ip_address"], network["netmask"]) == ("192.168.50.20", "255.255.255.0")
    assert network["routes"][0]["gateway"] == "192.168.50.1"
    assert _network_data(api, ready)["services"] == [{"type": "dns", "address": "192.168.50.53"}]
    hosts = _hosts(api)
    assert keys.PAUSED_ANNOTATION not in hosts[ready]["metadata"]["annotations"]
    assert hosts[failed]["metadata"]["annotations"][keys.PAUSED_ANNOTATION] == (
        keys.PREPROVISIONING_PAUSE
    )
    assert all(m.startswith(f"IPAddressClaim {NS}/{failed}-{POOL}") for m in _warnings(api, failed))
    claim = client.CustomObjectsApi(api).get_namespaced_custom_object(
        CAPI, keys.CAPI_IPAM_VERSION, NS, "ipaddressclaims", f"{ready}-{POOL}"
    )
    assert isinstance(claim, dict)
    assert claim["spec"]["poolRef"] == REF
    assert [o["name"] for o in claim["metadata"]["ownerReferences"]] == [ready]
    assert claim["metadata"]["labels"][keys.MANAGED_BY_LABEL] == keys.MANAGED_BY_VALUE
