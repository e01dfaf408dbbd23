"""`dhcpless status` phases that match the Events (issue 14, finding 12).

Each host is built through the API of a sandbox: a render failure shows as "render failed"
(it used to show "waiting for claims"); a released host paused for us again once available
shows "paused again" (it used to show "rendered"); a host found through a hostSelector shows
its template (it used to show "-"); the last reason is the latest Event even when two share a
second (it used to be whichever was listed first); a host a template applies to that was never
paused is listed as "not paused", while one past inspection or matching no template is not; a
host whose BMC boots by PXE shows "BMC boots by PXE".
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from typing import Any

import pytest
from kubernetes import client as k8s

from dhcpless import keys
from dhcpless.kube import Kube
from dhcpless.kube.events.recorder import event_body
from dhcpless.models import BareMetalHost
from dhcpless.reasons import Reason
from dhcpless.refs import HostRef
from dhcpless.tools.status.command import run_status
from dhcpless.tools.status.phase import Phase
from dhcpless_sandbox.apiserver.server import SandboxServer
from tests.support import harness, objects, scenario

pytestmark = pytest.mark.e2e
SAME_SECOND = "2026-01-01T00:00:00Z"
SELECTED = {"role": "worker"}


def _claim(host: str, status: dict[str, Any]) -> dict[str, Any]:
    labels = {
        keys.HOST_LABEL: host,
        keys.HOST_NAMESPACE_LABEL: objects.NS,
        keys.MANAGED_BY_LABEL: keys.MANAGED_BY_VALUE,
    }
    meta = {"name": f"{host}-pool4", "namespace": objects.NS, "labels": labels}
    body = {"metadata": meta, "spec": {"pool": {"name": "pool4"}}, "status": status}
    return {"apiVersion": "ipam.metal3.io/v1alpha1", "kind": "IPClaim", **body}


def _event(api: k8s.ApiClient, host: str, reason: Reason, name: str = "") -> None:
    group, version, plural = scenario.RESOURCES["BareMetalHost"]
    raw = k8s.CustomObjectsApi(api).get_namespaced_custom_object(
        group, version, objects.NS, plural, host
    )
    assert isinstance(raw, dict)
    body = event_body(
        HostRef.of(BareMetalHost.from_k8s(raw)), reason, reason.value, "metal3-dhcpless"
    )
    if name:
        body["metadata"]["name"] = name
        body["firstTimestamp"] = body["lastTimestamp"] = SAME_SECOND
    event = k8s.CoreV1Event.from_dict(body)
    assert event is not None
    k8s.CoreV1Api(api).create_namespaced_event(objects.NS, event)


def _state(api: k8s.ApiClient, host: str, state: str) -> None:
    group, version, plural = scenario.RESOURCES["BareMetalHost"]
    k8s.CustomObjectsApi(api).patch_namespaced_custom_object_status(
        group, version, objects.NS, plural, host, {"status": {"provisioning": {"state": state}}}
    )


@pytest.fixture(scope="module")
def world() -> Iterator[SandboxServer]:
    with harness.running() as sandbox, sandbox.api_client() as api:
        repaused = objects.host("h-repaused", data_name="h-repaused" + keys.SECRET_NAME_SUFFIX)
        repaused["metadata"]["annotations"][keys.RELEASED_AT_ANNOTATION] = SAME_SECOND
        for obj in (
            objects.POOL4,
            objects.machine_template("workers", "tmpl", SELECTED),
            objects.host("h-render"),
            repaused,
            objects.host("h-selector", template=None, labels=SELECTED),
            objects.host("h-same"),
            objects.host("h-pxe", bmc="ipmi://192.0.2.9"),
            objects.host("h-unpaused", pause=None, template=None, labels=SELECTED),
            objects.host("h-unpaused-done", pause=None, template=None, labels=SELECTED),
            objects.host("h-unrelated", pause=None, template=None, labels={"role": "db"}),
        ):
            scenario.create(api, obj)
        scenario.create(api, _claim("h-render", {}))
        _event(api, "h-render", Reason.CLAIMS_CREATED)
        _event(api, "h-render", Reason.RENDER_FAILED)
        _state(api, "h-repaused", "available")
        _state(api, "h-unpaused", "inspecting")
        _state(api, "h-unpaused-done", "provisioned")
        _event(api, "h-pxe", Reason.BMC_BOOTS_BY_PXE)
        _event(api, "h-same", Reason.NO_TEMPLATE, name="h-same.a-earlier")
        _event(api, "h-same", Reason.TEMPLATE_CHOSEN, name="h-same.b-later")
        yield sandbox


def _hosts(world: SandboxServer) -> dict[str, dict[str, Any]]:
    out = io.StringIO()
    with world.api_client() as api:
        assert run_status(objects.NS, True, Kube(api), out) == 0
    return {h["name"]: h for h in json.loads(out.getvalue())["hosts"]}


@pytest.mark.parametrize(
    ("host", "phase"),
    [
        pytest.param("h-render", Phase.RENDER_FAILED, id="render-failure"),
        pytest.param("h-repaused", Phase.PAUSED_AGAIN, id="re-paused-after-available"),
        pytest.param("h-selector", Phase.WAITING_FOR_TEMPLATE, id="selector-matched"),
        pytest.param("h-unpaused", Phase.UNPAUSED, id="never-paused-but-matches"),
        pytest.param("h-pxe", Phase.BMC_BOOTS_BY_PXE, id="bmc-boots-by-pxe"),
    ],
)
def test_the_phase_matches_the_events(world: SandboxServer, host: str, phase: Phase) -> None:
    assert _hosts(world)[host]["phase"] == phase.value


def test_a_selector_matched_host_shows_its_template(world: SandboxServer) -> None:
    template = _hosts(world)["h-selector"]["template"]
    assert template == f"metal3datatemplates.{keys.CAPM3_GROUP}/{objects.NS}/tmpl"


def test_the_last_reason_is_the_latest_event_within_a_second(world: SandboxServer) -> None:
    assert _hosts(world)["h-same"]["reason"] == Reason.TEMPLATE_CHOSEN.value


def test_hosts_past_inspection_or_matching_nothing_are_not_listed(world: SandboxServer) -> None:
    listed = set(_hosts(world))
    assert "h-unpaused" in listed
    assert not {"h-unpaused-done", "h-unrelated"} & listed
