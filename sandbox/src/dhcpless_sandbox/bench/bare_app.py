"""The bare function the bench compares cold starts with: Flask + cloudevents, answers 204.

Exists so `cold_start_ratio` has a fixed, honest denominator: the least a Knative function in
Python can be (parse the CloudEvent, answer), served by the same gunicorn settings and started
the same way as the real functions (`sandbox.processes`). It reads nothing and writes nothing.
"""

from __future__ import annotations

from cloudevents.core.bindings.http import HTTPMessage, from_http_event
from flask import Flask, Response, request

APP = "dhcpless_sandbox.bench.bare_app:create_app()"
"""The gunicorn app-factory string."""


def create_app() -> Flask:
    app = Flask("bare")

    @app.post("/")
    def receive() -> Response:
        message = HTTPMessage(headers=dict(request.headers), body=request.get_data())
        from_http_event(message)
        return Response(status=204)

    return app
