"""resync (PingSource) and the edges every function shares.

Covers: with every ApiServerSource event lost, PingSource ticks alone (plus IPAM) bring paused
hosts to unpaused with their Secrets, and leave other hosts alone; resync refuses non-ping
events; for every function, malformed input is a 400 with a short reason and not a single API
request; the health probes answer 200.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from cloudevents.core.bindings.http import to_binary_event
from cloudevents.core.v1.event import CloudEvent

from dhcpless import keys
from dhcpless.serving.events import PING_EVENT_TYPE
from dhcpless_sandbox.apiserver.server import SandboxServer
from tests.support import harness, objects, scenario

FUNCTIONS = ["host-registration", "ipclaim-fulfilment", "secret-readiness", "resync"]


@pytest.fixture
def world() -> Iterator[SandboxServer]:
    with harness.running() as sandbox:
        yield sandbox


def ping(sandbox: SandboxServer) -> int:
    event = CloudEvent(
        attributes={
            "type": PING_EVENT_TYPE,
            "source": "/apis/v1/namespaces/metal3/pingsources/resync",
        },
        data=None,
    )
    message = to_binary_event(event)
    return (
        harness.client(sandbox, "resync")
        .post("/", headers=message.headers, data=message.body)
        .status_code
    )


def test_resync_alone_brings_paused_hosts_home(world: SandboxServer) -> None:
    for obj in (objects.POOL4, objects.POOL6, objects.data_template(objects.DUAL)):
        harness.put(world, obj)
    for i in range(2):
        harness.put(world, objects.host(f"host-{i}"))
    bystander = harness.put(world, objects.host("bystander", pause=keys.CAPM3_PAUSE))
    assert ping(world) == 204
    with world.api_client() as api:
        scenario.Ipam(api).fulfil_all()
    assert ping(world) == 204
    for i in range(2):
        released = harness.get(world, "BareMetalHost", f"host-{i}")
        assert released is not None
        assert keys.PAUSED_ANNOTATION not in released["metadata"]["annotations"]
        assert (
            released["spec"]["preprovisioningNetworkDataName"]
            == f"host-{i}{keys.SECRET_NAME_SUFFIX}"
        )
    assert harness.get(world, "BareMetalHost", "bystander") == bystander
    world.reset_audit()
    assert ping(world) == 204  # a settled fleet: the cursor, one LIST of hosts, of our claims
    assert [r.verb for r in harness.audit_of(world, "resync")] == ["get", "list", "list"]


def test_resync_refuses_other_events(world: SandboxServer) -> None:
    status, body = harness.deliver_raw(
        harness.client(world, "resync"), "dev.knative.apiserver.resource.add", objects.host()
    )
    assert status == 400 and "unexpected event type" in body
    assert harness.audit_of(world, "resync") == []


@pytest.mark.parametrize("function", FUNCTIONS)
@pytest.mark.parametrize(
    ("headers", "body"),
    [
        pytest.param({"content-type": "text/plain"}, b"hello", id="not-json"),
        pytest.param({"content-type": "application/json"}, b"[1]", id="json-array"),
        pytest.param(
            {"content-type": "application/json"}, b'{"kind": "BareMetalHost"}', id="plain-object"
        ),
        pytest.param(
            {
                "ce-specversion": "1.0",
                "ce-id": "1",
                "ce-source": "s",
                "ce-type": "x",
                "ce-bad-name": "1",
            },
            b"{}",
            id="bad-extension",
        ),
    ],
)
def test_malformed_input_is_400_and_touches_nothing(
    world: SandboxServer, function: str, headers: dict[str, str], body: bytes
) -> None:
    response = harness.client(world, function).post("/", headers=headers, data=body)
    assert response.status_code == 400
    assert 0 < len(response.get_data()) < 200
    assert harness.audit_of(world, function) == []


@pytest.mark.parametrize("function", FUNCTIONS)
def test_health(world: SandboxServer, function: str) -> None:
    client = harness.client(world, function)
    assert (
        client.get("/health/liveness").status_code
        == client.get("/health/readiness").status_code
        == 200
    )
