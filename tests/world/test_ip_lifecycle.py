"""IP lifecycle in the embedded world: both scenarios of the revised design (README "IP lifecycle").

* Common pool (the IPPool has `clusterName`): once the host is `available`, host-registration
  deletes our `<bmh>-<pool>` claim; the CAPM3 stand-in, blocked until then by a claim it does
  not own, claims `<bmh>-<pool>` itself and, through `preAllocations` (recorded by us with the
  opt-in, or written by the user up front), gets the very address the ramdisk booted with.
* Decoupled pool (no `clusterName`): the claim and its address survive `available`, a
  simulated deprovision and re-inspection (the ramdisk boots again with it), and another host
  never gets that address; deleting the host releases it (garbage collection, then IPAM).
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from typing import Any

import pytest
from kubernetes import client

from dhcpless import keys
from dhcpless.demo_inventory import POOL, create, host, inventory
from dhcpless.demo_report import observe
from dhcpless.keys import ProvisioningState
from dhcpless.sandbox.bmh_status import host_status
from dhcpless.sandbox.capm3 import CAPM3Controller, metal3data_uid
from dhcpless.sandbox.custom_objects import CustomObjects
from dhcpless.sandbox.world import World, WorldSettings
from tests.support.waits import eventually

NS = "demo"
USER_PREALLOCATED = {f"host-00{i}-{POOL}": f"192.168.111.{50 + i}" for i in range(2)}


@pytest.fixture
def world(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[World]:
    """A world whose functions read `env` (the test's parameter) when they cold-start."""
    for name in (keys.RECORD_PREALLOCATION_ENV, keys.RELEASE_DECOUPLED_ENV):
        monkeypatch.delenv(name, raising=False)
    for name, value in getattr(request, "param", {}).items():
        monkeypatch.setenv(name, value)
    started = World(WorldSettings(resync_seconds=0.5, idle_seconds=0.5))
    started.start()
    yield started
    started.stop()


def _ipam(api: client.ApiClient) -> CustomObjects:
    return CustomObjects(api, keys.IPAM_GROUP, keys.IPAM_VERSION)


def _booted_with(api: client.ApiClient, name: str) -> str:
    """The address the host's ramdisk got: from the Secret it was released with."""
    secret = client.CoreV1Api(api).read_namespaced_secret(f"{name}-preprov-networkdata", NS)
    document = json.loads(base64.b64decode((secret.data or {})[keys.NETWORK_DATA_KEY]))
    address: str = document["networks"][0]["ip_address"]
    return address


def _address_of(api: client.ApiClient, claim: str) -> str | None:
    found = _ipam(api).get("ipclaims", NS, claim)
    ref = ((found or {}).get("status") or {}).get("address")
    if not ref:
        return None
    address = _ipam(api).get("ipaddresses", NS, ref["name"])
    return None if address is None else str(address["spec"]["address"])


def _capm3_owns(api: client.ApiClient, host_name: str) -> bool:
    found = _ipam(api).get("ipclaims", NS, f"{host_name}-{POOL}") or {"metadata": {}}
    uids = [r.get("uid") for r in found["metadata"].get("ownerReferences") or []]
    return uids == [metal3data_uid(NS, host_name)]


def _common_pool(preallocated: dict[str, str]) -> list[dict[str, Any]]:
    objs = inventory(2)
    objs[1]["spec"] |= {"clusterName": "cluster-1", "preAllocations": preallocated}
    return objs


@pytest.mark.e2e
@pytest.mark.parametrize(
    ("world", "preallocated"),
    [
        pytest.param({keys.RECORD_PREALLOCATION_ENV: "true"}, {}, id="recorded-by-us"),
        pytest.param({}, USER_PREALLOCATED, id="written-by-the-user"),
    ],
    indirect=["world"],
)
def test_common_pool_capm3_gets_the_same_address(
    world: World, preallocated: dict[str, str]
) -> None:
    api = world.api_client()
    capm3 = CAPM3Controller(world.api_client(), [POOL])
    capm3.start()
    try:
        create(api, _common_pool(preallocated))
        names = ["host-000", "host-001"]
        assert eventually(lambda: all(_capm3_owns(api, n) for n in names), timeout=30)
        booted = {n: _booted_with(api, n) for n in names}
        assert eventually(lambda: {n: _address_of(api, f"{n}-{POOL}") for n in names} == booted)
    finally:
        capm3.stop()
    pool = _ipam(api).get("ippools", NS, POOL) or {}
    recorded = {f"{n}-{POOL}": ip for n, ip in booted.items()}
    assert pool["spec"]["preAllocations"] == (preallocated or recorded)
    assert capm3.claimed == {f"{n}-{POOL}" for n in names}


def _set_state(api: client.ApiClient, name: str, state: ProvisioningState) -> None:
    hosts = CustomObjects(api, keys.BMO_GROUP, keys.BMO_VERSION)
    hosts.patch_status("baremetalhosts", NS, name, host_status(state))


def _state(api: client.ApiClient, name: str) -> str:
    return next((r.state for r in observe(api) if r.name == name), "gone")


@pytest.mark.e2e
def test_decoupled_pool_keeps_the_address_until_the_host_is_deleted(world: World) -> None:
    api = world.api_client()
    create(api, inventory(1))
    claim = f"host-000-{POOL}"
    assert eventually(lambda: _state(api, "host-000") == "available", timeout=30)
    first = _booted_with(api, "host-000")
    for state in (ProvisioningState.DEPROVISIONING, ProvisioningState.INSPECTING):
        _set_state(api, "host-000", state)  # BMO stand-in: re-inspection boots the ramdisk
    assert eventually(lambda: _state(api, "host-000") == "available", timeout=30)
    assert _address_of(api, claim) == first  # still reserved, never released in between
    create(api, [host(1)])
    assert eventually(lambda: _state(api, "host-001") == "available", timeout=30)
    assert _booted_with(api, "host-001") != first
    CustomObjects(api, keys.BMO_GROUP, keys.BMO_VERSION).delete("baremetalhosts", NS, "host-000")
    assert eventually(lambda: _ipam(api).get("ipclaims", NS, claim) is None)
    addresses = [a["spec"]["address"] for a in _ipam(api).list_items("ipaddresses", NS)]
    assert first not in addresses
