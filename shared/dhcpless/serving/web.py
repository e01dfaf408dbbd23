"""The Flask app factory every function builds on, and the one place errors become HTTP.

POST `/` carries a CloudEvent; the function's handler parses, decides and acts, and the answer
is chosen for Knative's delivery rules (knative.md §c): 413 for a body above the size limit,
400 for one too slow to arrive (`dhcpless.limits`, neither is retried), 204 with an empty body
when done or nothing to do, 400 with a short text for input we will never accept (not
retried), 503 for anything that may work next time (retried). Never a 2xx with a body (the
broker would turn it into a 502), never 404/408/409/429 for a permanent failure (Knative
retries those). A large event (an IPPool's, whose status names every claim) is decoded and
handled while no other large document is decoded in the process (`kube.large`).
"""

from __future__ import annotations

import logging
import socket
import traceback
from collections.abc import Callable

from cloudevents.core.base import BaseCloudEvent
from flask import Flask, Response, request
from werkzeug.exceptions import HTTPException

from dhcpless import errors
from dhcpless.keys import FunctionName
from dhcpless.kube import one_large_at_a_time
from dhcpless.serving import delivery, events
from dhcpless.serving.body import SOCKET_KEYS, BodyRefused, read_body
from dhcpless.serving.retrying import Deferred, retrying
from dhcpless.settings import Settings

log = logging.getLogger(__name__)

Handler = Callable[[BaseCloudEvent], None]
"""Parse -> decide -> act for one CloudEvent; raises the families in `errors` to say why not."""


def create_function_app(name: FunctionName, handler: Handler, settings: Settings) -> Flask:
    """A Flask app serving one function: POST `/` plus the two health probes. The handler runs
    inside `retrying`, so a per-host conflict is retried here, not by the broker."""
    handler = retrying(handler)
    app = Flask(name.value)
    app.config["DHCPLESS_SETTINGS"] = settings

    @app.post("/")
    def receive() -> Response:
        body = request_body()
        with one_large_at_a_time(len(body)):  # its objects live until the handler returns
            cloudevent = events.read_cloudevent(dict(request.headers), body)
            del body
            delivery.begin(cloudevent)
            handler(cloudevent)
        return Response(status=204)

    delivery.install(app)

    @app.get("/health/liveness")
    @app.get("/health/readiness")
    def health() -> Response:
        return Response("ok\n", status=200, mimetype="text/plain")

    app.register_error_handler(Exception, _to_response)
    log.info("function %s ready with settings %s", name.value, settings.model_dump())
    return app


def request_body() -> bytes:
    """The current request's body within `dhcpless.limits` (BodyRefused past them)."""
    sockets = (request.environ.get(key) for key in SOCKET_KEYS)
    sock = next((s for s in sockets if isinstance(s, socket.socket)), None)
    return read_body(request.stream, request.content_length, sock)


def _frames(exc: BaseException) -> str:
    """Where it failed (file, line, code), without the exception's text: that text may quote
    data read from a Secret the host's owner cannot read (issue 14, finding 4)."""
    return "".join(traceback.format_tb(exc.__traceback__)).rstrip()


def _to_response(exc: Exception) -> Response | HTTPException:
    """The single mapping from our error families to status codes."""
    if isinstance(exc, HTTPException):
        return exc  # routing errors (unknown path, wrong method) stay Flask's
    delivery.outcome(exc)
    if isinstance(exc, BodyRefused):  # 413 or 400; `read_body` ends the connection
        log.warning("rejected (%d): %s", exc.status, exc.reason)
        return Response(f"{exc.reason}\n", status=exc.status, mimetype="text/plain")
    if isinstance(exc, errors.Outcome):
        (log.warning if isinstance(exc, Deferred) else log.info)("done: %s", exc.reason)
        return Response(status=204)
    if isinstance(exc, errors.InvalidInput):
        log.warning("rejected (400): %s", exc.reason)
        return Response(f"{exc.reason}\n", status=400, mimetype="text/plain")
    if isinstance(exc, errors.Transient):
        log.warning("will retry (503): %s", exc.reason)
        return Response("transient failure, retry\n", status=503, mimetype="text/plain")
    log.error("unexpected failure (503): %s\n%s", type(exc).__name__, _frames(exc))
    return Response("internal error, retry\n", status=503, mimetype="text/plain")
