"""The `dead-letter` service every Trigger's delivery falls back to.

Exists so lost work is visible: the demo and the end-to-end tests count what the broker gave up
on (a healthy run has none). Only the CloudEvent attribute headers are kept, never the body,
because a body may carry Secret-derived data.
"""

from __future__ import annotations

import threading

from flask import Flask, Response, request


class DeadLetters:
    """The `dead-letter` service: counts what the broker gave up on (never logs data)."""

    def __init__(self) -> None:
        self.received: list[dict[str, str]] = []
        self._lock = threading.Lock()

    def app(self) -> Flask:
        app = Flask("dead-letter")

        @app.post("/")
        def receive() -> Response:
            seen = {k.lower(): v for k, v in request.headers.items() if k.lower().startswith("ce-")}
            with self._lock:
                self.received.append(seen)
            return Response(status=204)

        return app
