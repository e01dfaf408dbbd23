"""Self-healing of an exhausted pool, through the whole world (issue 6 item 5).

A one-address pool serves the first host; IPAM fails the others' claims (`Exhausted IP Pools`)
and never retries them. Enlarging the pool is an IPPool update: the IPPool ApiServerSource sends
it through the broker to ipclaim-fulfilment, which deletes our failed claims (a `ClaimRetried`
Event each); their delete events re-drive the waiting hosts, which claim again, and every host
ends `available` with a distinct address. Resync is slowed down so that it cannot be what heals.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from kubernetes import client

from dhcpless import keys
from dhcpless_sandbox.demo.inventory import POOL, create, inventory
from dhcpless_sandbox.demo.report import observe
from dhcpless_sandbox.runtime.world import World
from dhcpless_sandbox.runtime.world_settings import WorldSettings
from tests.support.waits import eventually

NS = "demo"
HOSTS = 3


@pytest.fixture
def world() -> Iterator[World]:
    started = World(WorldSettings(resync_seconds=600, idle_seconds=0.5))
    started.start()
    yield started
    started.stop()


def _failed(api: client.ApiClient) -> list[str]:
    claims: Any = client.CustomObjectsApi(api).list_namespaced_custom_object(
        keys.IPAM_GROUP, keys.IPAM_VERSION, NS, "ipclaims"
    )
    return sorted(
        c["metadata"]["name"]
        for c in claims["items"]
        if (c.get("status") or {}).get("errorMessage")
    )


def _retried(api: client.ApiClient) -> list[str]:
    events = client.CoreV1Api(api).list_namespaced_event(NS).items
    return sorted({str(e.involved_object.name) for e in events if e.reason == "ClaimRetried"})


def _resize(api: client.ApiClient, end: str) -> None:
    pools = [{"subnet": "192.168.111.0/24", "start": "192.168.111.20", "end": end}]
    client.CustomObjectsApi(api).patch_namespaced_custom_object(
        keys.IPAM_GROUP, keys.IPAM_VERSION, NS, "ippools", POOL, {"spec": {"pools": pools}}
    )


@pytest.mark.e2e
def test_enlarging_an_exhausted_pool_brings_every_host_to_available(world: World) -> None:
    api = world.api_client()
    objs = inventory(HOSTS)
    objs[1]["spec"]["pools"][0]["end"] = "192.168.111.20"  # room for one host only
    create(api, objs)
    assert eventually(lambda: len(_failed(api)) == HOSTS - 1, timeout=30)
    assert [r.state for r in observe(api)].count("available") <= 1
    _resize(api, "192.168.111.29")
    assert eventually(lambda: [r.state for r in observe(api)] == ["available"] * HOSTS, 30)
    assert len({row.ip for row in observe(api)}) == HOSTS
    assert len(_retried(api)) == HOSTS - 1
    assert world.counters().invocations["resync"] == 0
