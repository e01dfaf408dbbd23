"""resync's hang detection (issue 6 item 7) and its one-namespace LIST.

Covers: a host we released that stays `inspecting`, or records a `registration error`, past
the threshold gets one `HostHangs` Warning naming its boot MAC, address, gateway and Secret;
a second tick adds no Event (deduplicated per host and release); a recent release, a host
that reached `available` and a host we never released get none, and cost no read beyond the
LIST; resync lists hosts only in its configured namespace and never touches another's.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from cloudevents.core.bindings.http import to_binary_event
from cloudevents.core.v1.event import CloudEvent
from kubernetes import client as k8s

from dhcpless import keys
from dhcpless.serving.events import PING_EVENT_TYPE
from dhcpless_sandbox.apiserver.server import SandboxServer
from tests.support import harness, objects, scenario

pytestmark = pytest.mark.e2e
LONG_AGO = "2020-01-01T00:00:00Z"
JUST_NOW = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
SECRET = "host-0" + keys.SECRET_NAME_SUFFIX


def ping(sandbox: SandboxServer) -> int:
    """One PingSource tick to resync (its namespace: objects.NS, see harness.client)."""
    attributes = {"type": PING_EVENT_TYPE, "source": "/pingsources/dhcpless-resync"}
    message = to_binary_event(CloudEvent(attributes=attributes, data=None))
    response = harness.client(sandbox, "resync").post(
        "/", headers=message.headers, data=message.body
    )
    return response.status_code


@pytest.fixture
def released() -> Iterator[SandboxServer]:
    """host-0 released by the chain (IPv4 from pool4), its claim and address in place."""
    with harness.running() as sandbox:
        objs = [objects.POOL4, objects.data_template(objects.IPV4), objects.host()]
        result = scenario.run_chain(sandbox, objs, harness.IDENTITIES)
        assert keys.PAUSED_ANNOTATION not in result.hosts["host-0"].annotations
        yield sandbox


def set_host(sandbox: SandboxServer, released_at: str | None, status: dict[str, Any]) -> None:
    group, version, plural = scenario.RESOURCES["BareMetalHost"]
    with sandbox.api_client() as api:
        custom = k8s.CustomObjectsApi(api)
        custom.patch_namespaced_custom_object_status(
            group, version, objects.NS, plural, "host-0", {"status": status}
        )
        stamp = {keys.RELEASED_AT_ANNOTATION: released_at}
        custom.patch_namespaced_custom_object(
            group, version, objects.NS, plural, "host-0", {"metadata": {"annotations": stamp}}
        )


def hang_events(sandbox: SandboxServer) -> list[tuple[str, str]]:
    with sandbox.api_client() as api:
        return [(k, m) for k, r, m in harness.host_events(api, "host-0") if r == "HostHangs"]


INSPECTING = {"provisioning": {"state": "inspecting"}}
REG_ERROR = {
    "provisioning": {"state": "registering"},
    "errorType": keys.REGISTRATION_ERROR,
    "errorMessage": "x",
}


@pytest.mark.parametrize(
    ("released_at", "status", "hangs"),
    [
        pytest.param(LONG_AGO, INSPECTING, "still inspecting", id="inspecting-too-long"),
        pytest.param(
            LONG_AGO, REG_ERROR, "with registration error (registering)", id="registration-error"
        ),
        pytest.param(JUST_NOW, INSPECTING, None, id="released-just-now"),
        pytest.param(LONG_AGO, {"provisioning": {"state": "available"}}, None, id="available"),
        pytest.param(None, INSPECTING, None, id="never-released-by-us"),
    ],
)
def test_hang_is_reported_once(
    released: SandboxServer, released_at: str | None, status: dict[str, Any], hangs: str | None
) -> None:
    set_host(released, released_at, status)
    released.reset_audit()
    assert ping(released) == 204
    reads = [(r.verb, r.resource) for r in harness.audit_of(released, "resync")]
    if hangs is None:
        assert hang_events(released) == []
        claims = [("list", "ipclaims")] if released_at else []  # its record: our claims listed
        assert reads == [("get", "configmaps"), ("list", "baremetalhosts"), *claims]
        return
    ((kind, message),) = hang_events(released)
    assert kind == "Warning" and f"{hangs} 900s after release at {LONG_AGO}" in message
    for part in (f"boot MAC {objects.MAC}", "addresses 192.168.10.10/24"):
        assert part in message
    assert f"gateway 192.168.10.1, Secret {SECRET}" in message
    assert ping(released) == 204
    assert len(hang_events(released)) == 1


def test_resync_lists_only_its_namespace() -> None:
    with harness.running() as sandbox:
        with sandbox.api_client() as api:
            k8s.CoreV1Api(api).create_namespace(
                k8s.V1Namespace(metadata=k8s.V1ObjectMeta(name="elsewhere"))
            )
            stranger = {
                **objects.host("stranger"),
                "metadata": {**objects.host("stranger")["metadata"], "namespace": "elsewhere"},
            }
            scenario.create(api, stranger)
        harness.put(sandbox, objects.host("local"))
        assert ping(sandbox) == 204
        audit = harness.audit_of(sandbox, "resync")
    assert {r.namespace for r in audit} == {objects.NS}
    assert ("list", "baremetalhosts") in [(r.verb, r.resource) for r in audit]
