"""One delivery's frame in the logs: its event and trace on every line, one closing line.

Flask runs `before_request`, the view, the error handler and `after_request` of a request on one
thread, so the delivery's context lives in context variables set when the request starts
(`dhcpless.tracing.CURRENT`, from the `traceparent` header the broker sends) and when its
CloudEvent is read (`logs.DELIVERY`; the CloudEvent's own `traceparent` extension when no header
came, and the object's own trace when one of our functions wrote it: `tracing.follow`), and
reset when the request ends. With the `otel` extra asked for, the delivery is a span too
(`otel`). The closing line names the outcome, the HTTP status
and the duration: what an operator greps for, one line per delivery.
"""

from __future__ import annotations

import logging
import time

from cloudevents.core.base import BaseCloudEvent
from flask import Flask, Response, current_app, g, request

from dhcpless import errors, tracing
from dhcpless.serving import logs, otel
from dhcpless.serving.body import BodyRefused

log = logging.getLogger("dhcpless.serving.delivery")


def begin(cloudevent: BaseCloudEvent) -> None:
    """The delivery's event on the lines that follow; its trace if the header brought none."""
    extension = cloudevent.get_extension("traceparent")
    if tracing.CURRENT.get() is None and (trace := tracing.parse(extension)) is not None:
        tracing.CURRENT.set(trace)
    kind, namespace, name = (cloudevent.get_extension(k) for k in ("kind", "namespace", "name"))
    shown = f"{kind} {namespace}/{name}" if kind and name else None
    logs.DELIVERY.set(logs.Delivery(
        cloudevent.get_id(), cloudevent.get_type(), cloudevent.get_subject(), shown
    ))  # fmt: skip
    if kind == "BareMetalHost" and namespace and name:
        tracing.bind_host(str(namespace), str(name))
    data = cloudevent.get_data()  # Resource mode: the object, with the trace that wrote it
    metadata = data.get("metadata") if isinstance(data, dict) else None
    if isinstance(metadata, dict) and isinstance(metadata.get("annotations"), dict):
        tracing.follow(metadata["annotations"])
    attributes = {"cloudevents.event_id": cloudevent.get_id()}
    attributes["cloudevents.event_type"] = cloudevent.get_type()
    attributes["cloudevents.event_subject"] = cloudevent.get_subject() or ""
    g.dhcpless_span = otel.start(f"{current_app.name} {cloudevent.get_type()}", attributes)


def outcome(exc: Exception) -> None:
    """What the error handler made of the delivery's exception (for the closing line)."""
    g.dhcpless_outcome = _word(exc)


def _word(exc: Exception) -> str:
    if isinstance(exc, BodyRefused):
        return "refused"
    if isinstance(exc, errors.Outcome):
        return "done"
    if isinstance(exc, errors.InvalidInput):
        return "rejected"
    return "retry" if isinstance(exc, errors.Transient) else "failed"


def install(app: Flask) -> None:
    """Open and close every POST `/` with its context and its closing line; the tracer, if
    traces are asked for, is made now (at start: a missing extra stops the container)."""
    otel.tracer()

    @app.before_request
    def start() -> None:
        g.dhcpless_started = time.monotonic()
        tracing.CURRENT.set(tracing.parse(request.headers.get("traceparent")))
        tracing.ON_FOLLOW.set(None)
        tracing.HOST.set(None)
        logs.DELIVERY.set(None)

    @app.after_request
    def close(response: Response) -> Response:
        if request.method == "POST" and request.path == "/":
            took = round((time.monotonic() - g.dhcpless_started) * 1000, 1)
            fields = {"outcome": g.get("dhcpless_outcome", "done"), "status": response.status_code}
            fields["duration_ms"] = took
            otel.end(g.get("dhcpless_span"), response.status_code, str(fields["outcome"]))
            log.info("delivery answered %d", response.status_code, extra={logs.FIELDS_KEY: fields})
        return response

    @app.teardown_request
    def end(_exc: BaseException | None) -> None:
        tracing.CURRENT.set(None)
        tracing.ON_FOLLOW.set(None)
        tracing.HOST.set(None)
        logs.DELIVERY.set(None)
