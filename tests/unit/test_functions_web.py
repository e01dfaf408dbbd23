"""The one HTTP mapping (`dhcpless.serving.web`): what Knative sees for each outcome of a handler.

Covers: 204 empty body on success and on `Gone`, 400 short text for invalid input (never
retried), 503 for an unavailable API and unexpected failures (retried, traceback logged without
the exception's text), a
per-host transient failure retried in-process then 204 (`dhcpless.serving.retrying`), 400 for a
request that is not a CloudEvent at all (handler never called), and the health probes.
"""

from __future__ import annotations

import logging

import pytest
from cloudevents.core.base import BaseCloudEvent
from cloudevents.core.bindings.http import to_binary_event
from cloudevents.core.v1.event import CloudEvent
from flask.testing import FlaskClient

from dhcpless import errors
from dhcpless.keys import FunctionName
from dhcpless.kube.transport import errors as kube_errors
from dhcpless.serving import web
from dhcpless.serving.retrying import DEFAULT_BOUND
from dhcpless.settings import Settings

RETRIED_BY_KNATIVE = {404, 408, 409, 429}


def client_raising(exc: Exception | None, calls: list[str]) -> FlaskClient:
    def handler(event: BaseCloudEvent) -> None:
        calls.append(event.get_id())
        if exc is not None:
            raise exc

    app = web.create_function_app(FunctionName.RESYNC, handler, Settings())
    return app.test_client()


def post_event(client: FlaskClient) -> tuple[int, str]:
    message = to_binary_event(
        CloudEvent(attributes={"type": "t", "source": "s", "id": "e1"}, data={"a": 1})
    )
    response = client.post("/", headers=message.headers, data=message.body)
    return response.status_code, response.get_data(as_text=True)


@pytest.mark.parametrize(
    ("exc", "status", "body", "calls"),
    [
        pytest.param(None, 204, "", 1, id="done"),
        pytest.param(errors.Gone("host ns/h1 not found"), 204, "", 1, id="gone"),
        pytest.param(errors.AlreadyExists("exists"), 204, "", 1, id="already-exists"),
        pytest.param(errors.InvalidInput("bad template"), 400, "bad template\n", 1, id="invalid"),
        pytest.param(
            kube_errors.ApiUnavailable("API server unreachable"),
            503,
            "transient failure, retry\n",
            1,
            id="api-unavailable",
        ),
        pytest.param(
            kube_errors.Conflict("conflict"),
            204,
            "",
            DEFAULT_BOUND.attempts,
            id="conflict-retried-in-process-then-deferred",
        ),
        pytest.param(
            errors.Transient("IPAddress not found yet"),
            204,
            "",
            DEFAULT_BOUND.attempts,
            id="per-host-transient-deferred",
        ),
        pytest.param(RuntimeError("boom"), 503, "internal error, retry\n", 1, id="unexpected"),
    ],
)
def test_outcomes_map_to_knative_friendly_statuses(
    exc: Exception | None, status: int, body: str, calls: int
) -> None:
    seen: list[str] = []
    assert post_event(client_raising(exc, seen)) == (status, body)
    assert seen == ["e1"] * calls
    assert status not in RETRIED_BY_KNATIVE


def test_unexpected_failure_logs_a_traceback_without_its_text(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Where it failed, never what the exception says: its text may quote Secret data (issue
    14, finding 4)."""
    with caplog.at_level(logging.ERROR, logger="dhcpless.serving.web"):
        post_event(client_raising(RuntimeError("networkData QZ99"), []))
    logged = "\n".join(r.getMessage() + (r.exc_text or "") for r in caplog.records)
    assert "RuntimeError" in logged and 'File "' in logged and "in handler" in logged
    assert "QZ99" not in logged and not any(r.exc_info for r in caplog.records)


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
