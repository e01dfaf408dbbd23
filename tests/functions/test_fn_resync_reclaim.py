"""resync claims again a claim deleted after release when no DELETE event came (README "IP
lifecycle": deleted by someone else). The pools are recorded on the host at release; a tick
finds the host's `<bmh>-<pool>` missing from one LIST of our claims and runs the host's
pipeline, which claims again with the same `ClaimDeleted` Warning as the DELETE path."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from cloudevents.core.bindings.http import to_binary_event, to_structured_event
from cloudevents.core.v1.event import CloudEvent
from kubernetes import client as k8s

from dhcpless import keys
from dhcpless.serving.events import PING_EVENT_TYPE
from dhcpless_sandbox.apiserver.server import SandboxServer
from tests.support import harness, objects, scenario

CLAIM = "host-0-pool4"


@pytest.fixture
def released() -> Iterator[SandboxServer]:
    """One host released by resync ticks alone (no ApiServerSource event at all)."""
    with harness.running() as sandbox:
        for obj in (objects.POOL4, objects.data_template(objects.IPV4), objects.host()):
            harness.put(sandbox, obj)
        assert ping(sandbox, structured=False) == 204
        with sandbox.api_client() as api:
            scenario.Ipam(api).fulfil_all()
        assert ping(sandbox, structured=False) == 204
        yield sandbox


def ping(sandbox: SandboxServer, structured: bool) -> int:
    attributes = {"type": PING_EVENT_TYPE, "source": "/apis/v1/namespaces/metal3/pingsources/x"}
    event = CloudEvent(attributes=attributes, data=None)
    message = to_structured_event(event) if structured else to_binary_event(event)
    app = harness.client(sandbox, "resync")
    return app.post("/", headers=message.headers, data=message.body).status_code


def fresh(sandbox: SandboxServer, kind: str, name: str) -> dict[str, Any]:
    found = harness.get(sandbox, kind, name)
    assert found is not None, f"{kind} {name} not found"
    return found


def delete_claim(sandbox: SandboxServer) -> None:
    """Someone deletes the claim; nobody delivers its DELETE event."""
    group, version, plural = scenario.RESOURCES["IPClaim"]
    with sandbox.api_client() as api:
        custom = k8s.CustomObjectsApi(api)
        custom.delete_namespaced_custom_object(group, version, objects.NS, plural, CLAIM)
    assert harness.get(sandbox, "IPClaim", CLAIM) is None


def claim_deleted(sandbox: SandboxServer) -> list[str]:
    with sandbox.api_client() as api:
        found = harness.host_events(api, "host-0")
    return [m for kind, reason, m in found if (kind, reason) == ("Warning", "ClaimDeleted")]


@pytest.mark.parametrize(
    "structured", [pytest.param(False, id="binary"), pytest.param(True, id="structured")]
)
def test_a_tick_claims_again_a_claim_deleted_after_release(
    released: SandboxServer, structured: bool
) -> None:
    host = fresh(released, "BareMetalHost", "host-0")
    annotations = host["metadata"]["annotations"]
    assert keys.PAUSED_ANNOTATION not in annotations
    assert annotations[keys.CLAIMED_POOLS_ANNOTATION] == f"{objects.NS}/pool4"
    old = fresh(released, "IPClaim", CLAIM)
    delete_claim(released)
    assert claim_deleted(released) == []
    released.reset_audit()
    assert ping(released, structured) == 204
    again = fresh(released, "IPClaim", CLAIM)
    assert again["metadata"]["uid"] != old["metadata"]["uid"]
    assert [o["uid"] for o in again["metadata"]["ownerReferences"]] == [host["metadata"]["uid"]]
    assert again["spec"]["pool"]["name"] == "pool4"
    assert [m.split(" was ")[0] for m in claim_deleted(released)] == [
        f"IPClaim {objects.NS}/{CLAIM}"
    ]
    writes = [
        (r.verb, r.resource) for r in harness.audit_of(released, "resync") if r.verb != "list"
    ]
    assert ("create", "ipclaims") in writes


def test_a_settled_host_costs_the_cursor_and_two_lists(released: SandboxServer) -> None:
    """Claim there: the tick reads the hosts and our claims, and writes nothing."""
    assert harness.get(released, "IPClaim", CLAIM) is not None
    released.reset_audit()
    assert ping(released, structured=True) == 204
    assert [(r.verb, r.resource) for r in harness.audit_of(released, "resync")] == [
        ("get", "configmaps"),  # the cursor: none stored, the round starts at the first host
        ("list", "baremetalhosts"),
        ("list", "ipclaims"),
    ]
    assert claim_deleted(released) == []


def test_a_host_released_before_the_record_is_left_as_it_was(released: SandboxServer) -> None:
    """No record (released by an earlier version): the tick does not claim for it."""
    path = "/metadata/annotations/" + keys.CLAIMED_POOLS_ANNOTATION.replace("/", "~1")
    with released.api_client() as api:
        harness.patch_host(api, "host-0", [{"op": "remove", "path": path}])
    delete_claim(released)
    assert ping(released, structured=False) == 204
    assert harness.get(released, "IPClaim", CLAIM) is None
    assert claim_deleted(released) == []
