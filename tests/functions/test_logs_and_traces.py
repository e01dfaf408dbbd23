"""One host's chain as an operator follows it: JSON log lines and one trace across three functions.

Real CloudEvents are posted, each with the `traceparent` header a Knative broker sends, a new
trace per delivery as an ApiServerSource starts one per event: host-registration (the host's
add), ipclaim-fulfilment (the claim's update once IPAM answered) and secret-readiness (the
Secret's add, Reference mode). Every line goes through the image's formatter
(`dhcpless.serving.logs.JsonFormatter`). Covers: each delivery's closing line has the event's
id, its outcome, status and duration; the decision lines name the host; the three functions'
lines carry one trace id, the first delivery's, because what each function writes carries it
(`keys.TRACEPARENT_ANNOTATION` on the claims, the Secret and the host's Events) and the next
function continues it; no line holds a byte of the Secret's data, encoded or decoded.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from typing import Any

import pytest
from cloudevents.core.bindings.http import to_binary_event
from flask.testing import FlaskClient
from kubernetes import client as k8s

from dhcpless import keys
from dhcpless.keys import EventType
from dhcpless.kube.events import recorder
from dhcpless.models import Secret
from dhcpless.serving import logs
from dhcpless_sandbox.apiserver.server import SandboxServer
from tests.support import harness, objects, scenario

FIRST = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
LATER = {
    "ipclaim-fulfilment": "00-11111111111111111111111111111111-2222222222222222-01",
    "secret-readiness": "00-33333333333333333333333333333333-4444444444444444-01",
}
TRACE = FIRST.split("-")[1]
SECRET = "host-0" + keys.SECRET_NAME_SUFFIX


class _Lines(logging.Handler):
    """Every record as the image prints it, parsed back."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.setFormatter(logs.JsonFormatter())
        self.lines: list[dict[str, Any]] = []
        self.text: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        text = self.format(record)
        self.text.append(text)
        self.lines.append(json.loads(text))


@pytest.fixture
def lines() -> Iterator[_Lines]:
    handler, root = _Lines(), logging.getLogger()
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    try:
        yield handler
    finally:
        root.removeHandler(handler)
        root.setLevel(level)


def _post(
    sandbox: SandboxServer, function: str, obj: dict[str, Any], event_id: str, trace: str
) -> int:
    event = scenario.cloudevent(EventType.RESOURCE_ADD, obj)
    event = type(event)(
        attributes={**event.get_attributes(), "id": event_id}, data=event.get_data()
    )
    message = to_binary_event(event)
    headers = {**message.headers, "traceparent": trace}
    response = harness.client(sandbox, function).post("/", headers=headers, data=message.body)
    assert isinstance(response, object)
    status: int = response.status_code
    return status


def run_chain(sandbox: SandboxServer) -> tuple[dict[str, Any], dict[str, Any]]:
    """host-0 taken from paused to released by the three functions, one delivery each, each
    under a new broker trace (`FIRST`, then `LATER`); the claim and the Secret delivered."""
    for obj in (objects.POOL4, objects.POOL6, objects.data_template(objects.DUAL)):
        harness.put(sandbox, obj)
    host = harness.put(sandbox, objects.host())
    assert _post(sandbox, "host-registration", host, "e-host", FIRST) == 204
    with sandbox.api_client() as api:
        for pool in ("pool4", "pool6"):
            claimed = harness.get(sandbox, "IPClaim", f"host-0-{pool}")
            assert claimed is not None
            scenario.Ipam(api).fulfil(claimed)
    claim = harness.get(sandbox, "IPClaim", "host-0-pool6")
    assert claim is not None
    fulfilment = LATER["ipclaim-fulfilment"]
    assert _post(sandbox, "ipclaim-fulfilment", claim, "e-claim", fulfilment) == 204
    secret = harness.get(sandbox, "Secret", SECRET)
    assert secret is not None
    readiness = LATER["secret-readiness"]
    assert _post(sandbox, "secret-readiness", secret, "e-secret", readiness) == 204
    recorder.flush()
    return claim, secret


@pytest.fixture
def chain(lines: _Lines) -> Iterator[tuple[SandboxServer, _Lines]]:
    """The logs of `run_chain`."""
    with harness.running() as sandbox:
        run_chain(sandbox)
        yield sandbox, lines


def _closing(lines: _Lines, event_id: str) -> dict[str, Any]:
    (line,) = [
        x for x in lines.lines if x["message"].startswith("delivery answered")
        and x.get("event", {}).get("id") == event_id
    ]  # fmt: skip
    return line


@pytest.mark.parametrize(
    ("event_id", "function"),
    [
        pytest.param("e-host", "host-registration", id="host-registration"),
        pytest.param("e-claim", "ipclaim-fulfilment", id="ipclaim-fulfilment"),
        pytest.param("e-secret", "secret-readiness", id="secret-readiness"),
    ],
)
def test_each_delivery_closes_with_its_event_outcome_and_the_chains_trace(
    chain: tuple[SandboxServer, _Lines], event_id: str, function: str
) -> None:
    line = _closing(chain[1], event_id)
    assert (line["outcome"], line["status"], line["level"]) == ("done", 204, "INFO")
    assert line["duration_ms"] >= 0 and line["time"].endswith("+00:00")
    assert line["trace_id"] == TRACE
    assert line["event"]["type"] == EventType.RESOURCE_ADD.value.replace(
        ".resource.", ".ref." if function == "secret-readiness" else ".resource."
    )


def test_decisions_name_the_host_and_carry_one_trace(chain: tuple[SandboxServer, _Lines]) -> None:
    decisions = [x for x in chain[1].lines if x["message"].startswith("host metal3/host-0:")]
    assert len(decisions) >= 2, [x["message"] for x in chain[1].lines]
    assert {x["host"] for x in decisions} == {"metal3/host-0"}
    assert {x["trace_id"] for x in decisions} == {TRACE}
    assert any("release" in x["message"] for x in decisions)


def test_what_the_chain_wrote_carries_its_trace(chain: tuple[SandboxServer, _Lines]) -> None:
    sandbox = chain[0]
    for kind, name in (("IPClaim", "host-0-pool4"), ("Secret", SECRET)):
        found = harness.get(sandbox, kind, name)
        assert found is not None
        assert found["metadata"]["annotations"][keys.TRACEPARENT_ANNOTATION] == FIRST, kind
    with sandbox.api_client() as api:
        events = k8s.CoreV1Api(api).list_namespaced_event(objects.NS).items
    ours = [e for e in events if e.involved_object.name == "host-0"]
    assert ours and {
        (e.metadata.annotations or {}).get(keys.TRACEPARENT_ANNOTATION) for e in ours
    } == {FIRST}


def test_no_line_holds_the_secrets_data(chain: tuple[SandboxServer, _Lines]) -> None:
    raw = harness.get(chain[0], "Secret", SECRET)
    assert raw is not None
    encoded = raw["data"][keys.NETWORK_DATA_KEY]
    decoded = Secret.from_k8s(raw).decoded(keys.NETWORK_DATA_KEY) or ""
    document = json.loads(decoded)
    needles = [encoded, decoded, *(n["ip_address"] for n in document["networks"])]
    assert all(len(n) > 6 for n in needles)
    assert chain[1].text and not [t for t in chain[1].text if any(n in t for n in needles)]


def test_a_delivery_without_traceparent_logs_no_trace(lines: _Lines) -> None:
    with harness.running() as sandbox:
        client: FlaskClient = harness.client(sandbox, "host-registration")
        assert harness.deliver(client, EventType.RESOURCE_ADD, objects.host())[0] == 204
    closing = [x for x in lines.lines if x["message"].startswith("delivery answered")]
    assert closing and all("trace_id" not in x for x in closing)
