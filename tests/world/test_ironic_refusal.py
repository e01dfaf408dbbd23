"""A host released with data Ironic refuses: the BMO stand-in stalls it, resync reports it once.

The world's BMO stand-in judges network data with Ironic's own schema (`tests.ironic_schema`).
The chain is made to release what it released before this project rendered `network_id`:
CAPM3's exact rendering, with the Ironic rules bypassed on purpose. BMO then gets a refusal on
the node update, writes no status, and the host stays `registering` with no error; once the
release is older than resync's hang threshold (900 s, the stamp is back-dated rather than
waited for), resync writes one `HostHangs` Warning naming the likely causes, and only one
however many resync ticks follow.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from kubernetes import client

from dhcpless import keys
from dhcpless.render import openstack, validate
from dhcpless_sandbox.demo.inventory import NAMESPACE, create, host, inventory
from dhcpless_sandbox.runtime.world import World
from dhcpless_sandbox.runtime.world_settings import WorldSettings
from tests.ironic_schema import schema_check
from tests.support.waits import eventually

KEY = (NAMESPACE, "host-001")
LONG_AGO = "2020-01-01T00:00:00Z"


@pytest.fixture
def world(monkeypatch: pytest.MonkeyPatch) -> Iterator[World]:
    capm3_static = openstack._static

    def without_network_id(*args: Any) -> dict[str, Any]:
        rendered = capm3_static(*args)
        del rendered["network_id"]  # CAPM3's rendering, as released before this change
        return rendered

    monkeypatch.setattr(openstack, "_static", without_network_id)
    monkeypatch.setattr(validate, "ironic_problems", lambda document: ())  # bypassed on purpose
    settings = WorldSettings(resync_seconds=0.3, idle_seconds=0.5, network_data_check=schema_check)
    started = World(settings)
    started.start()
    yield started
    started.stop()


def _host(api: client.ApiClient) -> dict[str, Any]:
    found: Any = client.CustomObjectsApi(api).get_namespaced_custom_object(
        keys.BMO_GROUP, keys.BMO_VERSION, NAMESPACE, "baremetalhosts", KEY[1]
    )
    return dict(found)


def _hang_events(api: client.ApiClient) -> list[Any]:
    events = client.CoreV1Api(api).list_namespaced_event(NAMESPACE).items
    return [e for e in events if e.involved_object.name == KEY[1] and e.reason == "HostHangs"]


@pytest.mark.e2e
def test_refused_data_stalls_in_registering_and_is_reported_once(world: World) -> None:
    api = world.api_client()
    create(api, [*inventory(0), host(1)])
    refused = eventually(lambda: world.bmo.refused.get(KEY), timeout=60)
    assert not any(value in refused for value in ("52:54:00", "192.168.", "255.255"))  # no data
    assert refused.startswith("Invalid network_data: networks/0: fails oneOf")
    status = _host(api)["status"]
    assert (status["provisioning"]["state"], status.get("errorType")) == ("registering", None)
    assert keys.PAUSED_ANNOTATION not in _host(api)["metadata"]["annotations"]  # released

    ticks = world.counters().invocations["resync"]
    assert eventually(lambda: world.counters().invocations["resync"] >= ticks + 2, timeout=30)
    assert _host(api)["status"]["provisioning"]["state"] == "registering"  # still, no status
    assert _hang_events(api) == []  # not yet past the threshold

    patch = {"metadata": {"annotations": {keys.RELEASED_AT_ANNOTATION: LONG_AGO}}}
    client.CustomObjectsApi(api).patch_namespaced_custom_object(
        keys.BMO_GROUP, keys.BMO_VERSION, NAMESPACE, "baremetalhosts", KEY[1], patch
    )
    (event,) = eventually(lambda: _hang_events(api), timeout=30)
    ticks = world.counters().invocations["resync"]
    assert eventually(lambda: world.counters().invocations["resync"] >= ticks + 3, timeout=30)
    assert [e.metadata.name for e in _hang_events(api)] == [event.metadata.name]
    assert event.type == "Warning"
    assert "still registering" in event.message
    assert "Ironic refused" in event.message and "BMC is unreachable" in event.message
    assert _host(api)["status"]["provisioning"]["state"] == "registering"
