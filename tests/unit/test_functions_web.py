"""The one HTTP mapping (`dhcpless.web`): what Knative sees for each outcome of a handler.

Covers: 204 empty body on success and on `Gone`, 400 short text for invalid input (never
retried), 503 for transient and unexpected failures (retried, traceback logged), 400 for a
request that is not a CloudEvent at all (handler never called), and the health probes.
"""

from __future__ import annotations

import logging

import pytest
from cloudevents.core.base import BaseCloudEvent
from cloudevents.core.bindings.http import to_binary_event
from cloudevents.core.v1.event import CloudEvent
from flask.testing import FlaskClient

from dhcpless import errors, web
from dhcpless.keys import FunctionName

RETRIED_BY_KNATIVE = {404, 408, 409, 429}


def client_raising(exc: Exception | None, calls: list[str]) -> FlaskClient:
    def handler(event: BaseCloudEvent) -> None:
        calls.append(event.get_id())
        if exc is not None:
            raise exc

    app = web.create_function_app(FunctionName.RESYNC, handler, web.Settings())
    return app.test_client()


def post_event(client: FlaskClient) -> tuple[int, str]:
    message = to_binary_event(
        CloudEvent(attributes={"type": "t", "source": "s", "id": "e1"}, data={"a": 1})
    )
    response = client.post("/", headers=message.headers, data=message.body)
    return response.status_code, response.get_data(as_text=True)


@pytest.mark.parametrize(
    ("exc", "status", "body"),
    [
        pytest.param(None, 204, "", id="done"),
        pytest.param(errors.Gone("host ns/h1 not found"), 204, "", id="gone"),
        pytest.param(errors.AlreadyExists("exists"), 204, "", id="already-exists"),
        pytest.param(errors.InvalidInput("bad template"), 400, "bad template\n", id="invalid"),
        pytest.param(
            errors.Transient("conflict"), 503, "transient failure, retry\n", id="transient"
        ),
        pytest.param(RuntimeError("boom"), 503, "internal error, retry\n", id="unexpected"),
    ],
)
def test_outcomes_map_to_knative_friendly_statuses(
    exc: Exception | None, status: int, body: str
) -> None:
    calls: list[str] = []
    assert post_event(client_raising(exc, calls)) == (status, body)
    assert calls == ["e1"]
    assert status not in RETRIED_BY_KNATIVE


def test_unexpected_failure_logs_a_traceback(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.ERROR, logger="dhcpless.web"):
        post_event(client_raising(RuntimeError("boom"), []))
    assert any(record.exc_info for record in caplog.records)


def test_not_a_cloudevent_is_400_and_handler_not_called() -> None:
    calls: list[str] = []
    response = client_raising(None, calls).post("/", data=b"hello", content_type="text/plain")
    assert response.status_code == 400
    assert response.get_data(as_text=True).startswith("not a CloudEvent")
    assert calls == []


@pytest.mark.parametrize("path", ["/health/liveness", "/health/readiness"])
def test_health_probes(path: str) -> None:
    response = client_raising(None, []).get(path)
    assert response.status_code == 200
