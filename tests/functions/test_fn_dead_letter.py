"""dead-letter, posted CloudEvents as the broker dead-letters them.

Covers: any CloudEvent (binary or structured, with Knative's knativeerrorcode and
knativeerrordest extensions) answers 204 with an empty body and logs one line naming its
attributes, never its data; input that is not a CloudEvent answers 400 with a short reason;
the health probes answer 200; the app is built without any Kubernetes client.
"""

from __future__ import annotations

import inspect
import logging
from typing import Any

import pytest
from cloudevents.core.bindings.http import to_binary_event, to_structured_event
from cloudevents.core.v1.event import CloudEvent
from flask.testing import FlaskClient

from functions.dead_letter import app as dead_letter

SECRETISH = "c2VjcmV0LWRhdGE="
HOST = {"apiVersion": "metal3.io/v1alpha1", "kind": "BareMetalHost", "metadata": {"name": "h"}}
FAILED = {
    "type": "dev.knative.apiserver.resource.update",
    "source": "https://10.96.0.1:443",
    "subject": "/apis/metal3.io/v1alpha1/namespaces/metal3/baremetalhosts/h",
    "id": "e-1",
    "kind": "BareMetalHost",
    "name": "h",
    "namespace": "metal3",
    "knativeerrorcode": "503",
    "knativeerrordest": "http://host-registration.metal3.svc.cluster.local",
}
PING = {"type": "dev.knative.sources.ping", "source": "/pingsources/dhcpless-resync", "id": "p"}


@pytest.fixture
def client() -> FlaskClient:
    return dead_letter.create_app().test_client()


def post(client: FlaskClient, attributes: dict[str, str], data: Any, structured: bool) -> Any:
    event = CloudEvent(attributes={**attributes, "datacontenttype": "application/json"}, data=data)
    message = to_structured_event(event) if structured else to_binary_event(event)
    return client.post("/", headers=message.headers, data=message.body)


@pytest.mark.parametrize(
    "structured", [pytest.param(False, id="binary"), pytest.param(True, id="structured")]
)
@pytest.mark.parametrize(
    ("attributes", "data", "expected"),
    [
        pytest.param(
            FAILED,
            {**HOST, "data": {"networkData": SECRETISH}},
            [f"{k}={v}" for k, v in FAILED.items()],
            id="apiserver-event-after-a-503",
        ),
        pytest.param(
            PING,
            {"reason": SECRETISH},
            ["type=dev.knative.sources.ping", "id=p", "source=/pingsources/dhcpless-resync"],
            id="ping-without-extensions",
        ),
    ],
)
def test_logs_attributes_never_data(
    client: FlaskClient,
    caplog: pytest.LogCaptureFixture,
    structured: bool,
    attributes: dict[str, str],
    data: Any,
    expected: list[str],
) -> None:
    with caplog.at_level(logging.INFO, logger="functions.dead_letter"):
        response = post(client, attributes, data, structured)
    assert (response.status_code, response.get_data()) == (204, b"")
    (line,) = [r.getMessage() for r in caplog.records if r.name == "functions.dead_letter.app"]
    assert all(part in line.split(" ") for part in expected), line
    assert SECRETISH not in caplog.text and "networkData" not in caplog.text


@pytest.mark.parametrize(
    ("headers", "body"),
    [
        pytest.param({"content-type": "text/plain"}, b"hello", id="not-json"),
        pytest.param({"content-type": "application/json"}, b"[1]", id="json-array"),
    ],
)
def test_not_a_cloudevent_is_400(client: FlaskClient, headers: dict[str, str], body: bytes) -> None:
    response = client.post("/", headers=headers, data=body)
    assert response.status_code == 400 and 0 < len(response.get_data()) < 200


@pytest.mark.parametrize("path", ["/health/liveness", "/health/readiness"])
def test_health(client: FlaskClient, path: str) -> None:
    assert client.get(path).status_code == 200


def test_built_without_a_kubernetes_client() -> None:
    assert list(inspect.signature(dead_letter.create_app).parameters) == []
    assert "kubernetes" not in inspect.getsource(dead_letter)
