"""IP lifecycle in the embedded world (README "IP lifecycle"): the host owns its address for its
whole life, CAPM3 borrows it.

With the CAPM3 stand-in (`sandbox.capm3`: CAPM3's own lookup of `<bmh>-<pool>` and its
ownership rule), for a pool with and without `clusterName`:

* a released host that CAPM3 provisions is deployed with the address it was inspected with;
  its claim is owned by the host *and* CAPM3's Metal3Data, and CAPM3 never created a claim;
* after deprovisioning (the Metal3Data goes) and cleaning the claim and address stay, and the
  next provisioning borrows it again;
* deleting the host (once deprovisioned) frees the address exactly once: the claim and its
  IPAddress go, the other host's stay.
"""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest
from kubernetes import client

from dhcpless import keys
from dhcpless.chain.predicates import answers
from dhcpless_sandbox.controllers.custom_objects import CustomObjects
from dhcpless_sandbox.demo.inventory import POOL, create, inventory
from dhcpless_sandbox.observe.wire import duplicates
from dhcpless_sandbox.runtime.world import World
from dhcpless_sandbox.runtime.world_settings import WorldSettings
from dhcpless_sandbox.standins.capm3 import CAPM3Controller
from tests.support.waits import eventually

NS = "demo"


def _ipam(api: client.ApiClient) -> CustomObjects:
    return CustomObjects(api, keys.IPAM_GROUP, keys.IPAM_VERSION)


def _booted_with(api: client.ApiClient, name: str) -> str:
    """The address the host's ramdisk got: from the Secret it was released with."""
    secret = client.CoreV1Api(api).read_namespaced_secret(f"{name}-preprov-networkdata", NS)
    document = json.loads(base64.b64decode((secret.data or {})[keys.NETWORK_DATA_KEY]))
    address: str = document["networks"][0]["ip_address"]
    return address


def _owners(api: client.ApiClient, host: str) -> list[str]:
    claim = _ipam(api).get("ipclaims", NS, f"{host}-{POOL}") or {"metadata": {}}
    return [r["kind"] for r in claim["metadata"].get("ownerReferences") or []]


def _objects(cluster: str | None) -> list[dict[str, Any]]:
    objs = inventory(2, NS)
    if cluster:  # IPAM allocates from a clusterName pool only once that Cluster exists
        objs[1]["spec"]["clusterName"] = cluster
        meta = {"name": cluster, "namespace": NS}
        cluster_obj = {
            "apiVersion": "cluster.x-k8s.io/v1beta2",
            "kind": "Cluster",
            "metadata": meta,
        }
        objs.insert(1, cluster_obj)  # after the Namespace, before the pool
    return objs


@pytest.mark.e2e
@pytest.mark.parametrize(
    "cluster", [pytest.param("cluster-1", id="common-pool"), pytest.param(None, id="no-cluster")]
)
def test_capm3_borrows_the_address_for_the_hosts_whole_life(
    world: World, cluster: str | None
) -> None:
    api = world.api_client()
    capm3 = CAPM3Controller(world.api_client(), [POOL])
    capm3.start()
    names = ["host-000", "host-001"]
    try:
        create(api, _objects(cluster))
        assert eventually(lambda: set(capm3.deployed) == set(names), timeout=60)
        booted = {n: _booted_with(api, n) for n in names}
        assert {n: capm3.deployed[n][POOL] for n in names} == booted
        ramdisks = {n: world.bmo.wire[(NS, n)] for n in names}  # what glean configured
        assert {n: tuple(a.split("/")[0] for a in ips) for n, ips in ramdisks.items()} == {
            n: (ip,) for n, ip in booted.items()
        }
        deployed = {n: tuple(capm3.deployed[n].values()) for n in names}
        assert duplicates(ramdisks, set(names)) == duplicates(deployed, set(names)) == set()
        assert all(_owners(api, n) == ["BareMetalHost", "Metal3Data"] for n in names)
        assert capm3.claimed == set()  # it never made a claim of its own
        capm3.deprovision(NS, "host-000")  # the Metal3Data goes; the host's claim stays
        assert eventually(lambda: "host-000" in capm3.deployed, timeout=60)  # provisioned again
        assert capm3.deployed["host-000"][POOL] == booted["host-000"]
    finally:
        capm3.stop()
    capm3.deprovision(NS, "host-000")  # as before a host is deleted: its machine goes first
    hosts = CustomObjects(api, keys.BMO_GROUP, keys.BMO_VERSION)
    hosts.delete("baremetalhosts", NS, "host-000")
    assert eventually(lambda: _ipam(api).get("ipclaims", NS, f"host-000-{POOL}") is None)
    addresses = [a["spec"]["address"] for a in _ipam(api).list_items("ipaddresses", NS)]
    assert addresses.count(booted["host-000"]) == 0
    assert addresses.count(booted["host-001"]) == 1
    data = CustomObjects(api, keys.CAPM3_GROUP, keys.CAPM3_VERSION)
    assert data.get("metal3datas", NS, capm3.data_of["host-001"]) is not None


def _warned(api: client.ApiClient, host: str, reason: str) -> bool:
    events = client.CoreV1Api(api).list_namespaced_event(NS).items
    return any(e.involved_object.name == host and e.reason == reason for e in events)


def _paused(api: client.ApiClient, host: str) -> bool:
    found = CustomObjects(api, keys.BMO_GROUP, keys.BMO_VERSION).get("baremetalhosts", NS, host)
    return keys.PAUSED_ANNOTATION in ((found or {})["metadata"].get("annotations") or {})


@pytest.mark.e2e
def test_a_pool_waiting_for_its_cluster_is_explained_then_served(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """IPAM allocates nothing from a clusterName pool until the Cluster exists, and says
    nothing; the host gets a ClaimUnanswered Warning, then is served once the Cluster exists."""
    monkeypatch.setattr(answers, "FRESH_SECONDS", 0.0)
    api = world.api_client()
    objs = inventory(1, NS)
    objs[1]["spec"]["clusterName"] = "later"
    create(api, objs)
    assert eventually(lambda: _warned(api, "host-000", "ClaimUnanswered"), timeout=60)
    assert _paused(api, "host-000")
    meta = {"name": "later", "namespace": NS}
    create(api, [{"apiVersion": "cluster.x-k8s.io/v1beta2", "kind": "Cluster", "metadata": meta}])
    assert eventually(lambda: not _paused(api, "host-000"), timeout=60)


@pytest.mark.e2e
def test_a_host_marked_done_is_lent_to_on_its_metal3data_event() -> None:
    """Released and labelled done (`chain.decide.quiet`: BMO's status updates of it reach no
    function), then associated by CAPM3: its claim is lent on the Metal3Data's event, with no
    resync tick to fall back on."""
    world = World(WorldSettings(resync_seconds=3600, idle_seconds=0.5))
    world.start()
    capm3 = CAPM3Controller(world.api_client(), [POOL])
    try:
        api = world.api_client()
        hosts = CustomObjects(api, keys.BMO_GROUP, keys.BMO_VERSION)
        create(api, _objects(None))

        def done() -> bool:
            found = [hosts.get("baremetalhosts", NS, f"host-00{i}") or {} for i in range(2)]
            labels = [(h.get("metadata") or {}).get("labels") or {} for h in found]
            return all(found) and all(keys.DONE_LABEL in label for label in labels)

        assert eventually(done, timeout=60)
        capm3.start()
        assert eventually(lambda: set(capm3.deployed) == {"host-000", "host-001"}, timeout=60)
        assert all(_owners(api, n) == ["BareMetalHost", "Metal3Data"] for n in capm3.deployed)
        assert capm3.claimed == set()
        assert world.counters().invocations.get("resync", 0) == 0
    finally:
        capm3.stop()
        world.stop()
