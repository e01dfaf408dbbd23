"""broker-ingress over HTTP: the WSGI app behind `Broker.start_http()`'s URL.

Exists so that anything speaking CloudEvents over HTTP (a function's reply path, kubectl users,
tests) can publish to the embedded broker exactly as to a real one: POST a binary or structured
event; 202 accepted, 400 for what is not a CloudEvent (or TTL ran out), 405 for other methods,
and 200 to the OPTIONS preflight.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cloudevents.core.base import BaseCloudEvent
from cloudevents.core.bindings.http import HTTPMessage, from_http_event
from cloudevents.core.exceptions import BaseCloudEventException
from werkzeug.wrappers import Request, Response

Publish = Callable[[BaseCloudEvent], int]
"""Accepts one event; returns the HTTP status to answer."""


def ingress_app(publish: Publish) -> Callable[..., Any]:
    """A WSGI app that parses each POSTed CloudEvent and hands it to `publish`."""

    def app(environ: dict[str, Any], start_response: Any) -> Any:
        return _answer(Request(environ), publish)(environ, start_response)

    return app


def _answer(request: Request, publish: Publish) -> Response:
    if request.method == "OPTIONS":
        return Response(status=200)
    if request.method != "POST":
        return Response(status=405)
    message = HTTPMessage(headers=dict(request.headers), body=request.get_data())
    try:
        event = from_http_event(message)
    except (BaseCloudEventException, ValueError, AttributeError) as error:
        return Response(f"not a CloudEvent: {error}", status=400)
    return Response(status=publish(event))
