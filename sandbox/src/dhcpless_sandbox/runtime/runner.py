"""Scale-to-zero function services (knative.md §d) and the local HTTP servers they run on.

`FunctionService` plays a Knative Service: the function is a real HTTP server on an ephemeral
port, started by the first request routed to it (a cold start, counted) and stopped after an
idle period, so the broker talks to it over real HTTP exactly as it would to a pod. `serve` and
`halt` are the one way every stand-in (functions, broker ingress) starts and ends a server.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from werkzeug.serving import BaseWSGIServer, WSGIRequestHandler, make_server

from dhcpless_sandbox.controllers.periodic import Periodic

log = logging.getLogger(__name__)

WSGIApp = Callable[..., Any]


class QuietHandler(WSGIRequestHandler):
    """No access log line per request: a demo of 50 hosts makes hundreds."""

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        return None


def serve(app: WSGIApp, name: str) -> BaseWSGIServer:
    """A threaded HTTP server for `app` on an ephemeral localhost port, already serving."""
    server = make_server("127.0.0.1", 0, app, threaded=True, request_handler=QuietHandler)
    threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True, name=name).start()
    return server


def halt(server: BaseWSGIServer) -> None:
    """Stop serving and release the port."""
    server.shutdown()
    server.server_close()


class FunctionService:
    """One function, scaled to zero between bursts of traffic."""

    def __init__(self, name: str, factory: Callable[[], WSGIApp], idle_seconds: float) -> None:
        self.name, self._factory, self._idle = name, factory, idle_seconds
        self._lock = threading.Lock()
        self._server: BaseWSGIServer | None = None
        self._in_flight = 0
        self._last_used = 0.0
        self.cold_starts = 0
        self.invocations = 0

    @contextmanager
    def request(self) -> Iterator[str]:
        """Yield the URL to send one request to, starting the server first if it is down."""
        with self._lock:
            server = self._server or self._cold_start()
            self._in_flight += 1
            self.invocations += 1
        try:
            yield f"http://127.0.0.1:{server.server_port}/"
        finally:
            with self._lock:
                self._in_flight -= 1
                self._last_used = time.monotonic()

    @property
    def running(self) -> bool:
        return self._server is not None

    def reap(self, now: float) -> bool:
        """Scale to zero when idle long enough; True if the server was stopped."""
        with self._lock:
            idle = self._in_flight == 0 and now - self._last_used >= self._idle
            server, self._server = (self._server, None) if idle else (None, self._server)
        if server is not None:
            halt(server)
        return server is not None

    def stop(self) -> None:
        self._idle = 0.0
        self.reap(float("inf"))

    def wrap_app(self, wrap: Callable[[Callable[[], WSGIApp]], Callable[[], WSGIApp]]) -> None:
        """Put middleware around every app this service builds from now on (fault injection,
        test taps); takes effect at the next cold start."""
        self._factory = wrap(self._factory)

    def kill(self) -> None:
        """Stop the server at once, requests in flight included, as a crashed pod; the next
        request cold-starts a fresh one (fault injection)."""
        with self._lock:
            server, self._server = self._server, None
        if server is not None:
            threading.Thread(target=halt, args=(server,), daemon=True, name="kill").start()

    def _cold_start(self) -> BaseWSGIServer:
        server = serve(self._factory(), self.name)
        self._server, self.cold_starts = server, self.cold_starts + 1
        log.info("cold start of %s on port %d", self.name, server.server_port)
        return server


class Reaper:
    """Periodically scales idle services to zero (the autoscaler's job)."""

    def __init__(self, services: list[FunctionService], period: float) -> None:
        self._services = services
        self._loop = Periodic(period, self._reap_all, "reaper")

    def start(self) -> None:
        self._loop.start()

    def stop(self) -> None:
        self._loop.stop()
        for service in self._services:
            service.stop()

    def _reap_all(self) -> None:
        for service in self._services:
            service.reap(time.monotonic())
