"""Hosts that slipped through without the pause, and hosts a manifest paused again.

Covers, through host-registration and resync over HTTP against the sandbox: an unpaused host
without network data that is new, registering or inspecting gets exactly one Warning with the
issue's message on its first event (redeliveries and later updates write nothing new), and
hosts past inspection, opted out, or naming their data get nothing and cost no request; resync
warns about the same hosts; a released host whose pause comes back is released again on its
own event, once per re-pause, with one Event that explains the manifest, and its Secret is
never rewritten.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import kubernetes.client as k8s
import pytest

from dhcpless import keys
from dhcpless.chain.decide import repause, slipped
from dhcpless.keys import EventType
from dhcpless_sandbox.apiserver.server import SandboxServer
from tests.functions.test_fn_resync_hang import ping
from tests.support import harness, objects, scenario

FN = "host-registration"
OPTED_OUT = {keys.PREPROVISIONING_SCOPE_LABEL: keys.SCOPE_DISABLED}


@pytest.fixture
def world() -> Iterator[SandboxServer]:
    with harness.running() as sandbox:
        yield sandbox


def _put_host(sandbox: SandboxServer, host: dict[str, Any], state: str) -> dict[str, Any]:
    harness.put(sandbox, host)
    if state:
        group, version, plural = scenario.RESOURCES["BareMetalHost"]
        status = {"status": {"provisioning": {"state": state}}}
        with sandbox.api_client() as api:
            k8s.CustomObjectsApi(api).patch_namespaced_custom_object_status(
                group, version, objects.NS, plural, "host-0", status
            )
    return harness.get(sandbox, "BareMetalHost", "host-0") or {}


def _events(sandbox: SandboxServer, reason: str) -> list[tuple[str, str]]:
    with sandbox.api_client() as api:
        return [(t, m) for t, r, m in harness.host_events(api, "host-0") if r == reason]


def _post(sandbox: SandboxServer, host: dict[str, Any], event_type: EventType) -> int:
    status, _ = harness.deliver(harness.client(sandbox, FN), event_type, host)
    return status


WARNING = [("Warning", slipped.MESSAGE)]


@pytest.mark.parametrize(
    ("host", "state", "expected"),
    [
        pytest.param(objects.host(pause=None), "", WARNING, id="new"),
        pytest.param(objects.host(pause=None), "registering", WARNING, id="registering"),
        pytest.param(objects.host(pause=None), "inspecting", WARNING, id="inspecting"),
        pytest.param(objects.host(pause=None), "available", [], id="past-inspection"),
        pytest.param(objects.host(pause=None, labels=OPTED_OUT), "", [], id="opted-out"),
        pytest.param(objects.host(pause=None, data_name="own"), "", [], id="names-its-data"),
    ],
)
def test_slipped_host_gets_one_warning(
    world: SandboxServer, host: dict[str, Any], state: str, expected: list[tuple[str, str]]
) -> None:
    stored = _put_host(world, host, state)
    world.reset_audit()
    for event_type in (
        EventType.RESOURCE_ADD,
        EventType.RESOURCE_UPDATE,
        EventType.RESOURCE_UPDATE,
    ):
        assert _post(world, stored, event_type) == 204
        assert _events(world, "RegisteredUnpaused") == expected  # from the first event on
    assert {r.resource for r in harness.writes(world, FN)} <= ({"events"} if expected else set())
    assert bool(harness.audit_of(world, FN)) == bool(expected)


@pytest.mark.parametrize(
    ("host", "expected"),
    [
        pytest.param(objects.host(pause=None), WARNING, id="slipped"),
        pytest.param(objects.host(pause=None, labels=OPTED_OUT), [], id="opted-out"),
    ],
)
def test_resync_warns_about_slipped_hosts(
    world: SandboxServer, host: dict[str, Any], expected: list[tuple[str, str]]
) -> None:
    _put_host(world, host, "inspecting")
    assert (ping(world), ping(world)) == (204, 204)
    assert _events(world, "RegisteredUnpaused") == expected


@pytest.fixture
def released() -> Iterator[SandboxServer]:
    """host-0 released by the chain, from a manifest that carries the pause."""
    with harness.running() as sandbox:
        objs = [objects.POOL4, objects.data_template(objects.IPV4), objects.host()]
        result = scenario.run_chain(sandbox, objs, harness.IDENTITIES)
        assert keys.PAUSED_ANNOTATION not in result.hosts["host-0"].annotations
        yield sandbox


def _repause(sandbox: SandboxServer) -> dict[str, Any]:
    """What a re-apply of the manifest does: the pause comes back, nothing else changes."""
    add = {"op": "add", "path": harness.PAUSE_PATH, "value": keys.PREPROVISIONING_PAUSE}
    with sandbox.api_client() as api:
        harness.patch_host(api, "host-0", [add])
    return harness.get(sandbox, "BareMetalHost", "host-0") or {}


def _host_patches(sandbox: SandboxServer) -> int:
    writes = harness.writes(sandbox, FN)
    return sum(1 for r in writes if r.resource == "baremetalhosts" and r.verb == "patch")


def test_repaused_host_is_released_again_on_its_own_event(released: SandboxServer) -> None:
    secret = harness.get(released, "Secret", "host-0" + keys.SECRET_NAME_SUFFIX) or {}
    released.reset_audit()
    for round_ in range(1, 4):
        assert _post(released, _repause(released), EventType.RESOURCE_UPDATE) == 204
        host = harness.get(released, "BareMetalHost", "host-0") or {}
        assert keys.PAUSED_ANNOTATION not in host["metadata"]["annotations"]
        assert _host_patches(released) == round_  # one release patch per re-pause
    assert _events(released, "ManifestRepaused") == [("Warning", repause.MESSAGE)]
    again = harness.get(released, "Secret", "host-0" + keys.SECRET_NAME_SUFFIX) or {}
    assert again["metadata"]["resourceVersion"] == secret["metadata"]["resourceVersion"]
