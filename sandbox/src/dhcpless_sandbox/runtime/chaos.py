"""Every fault at once, seeded: what the chaos demo runs the chain under.

Exists so reliability claims are measured, not assumed. Applied to a `World` before `start`:

* events: dropped, duplicated, reordered (the source's `Faults`) and delayed (held back, then
  sent late, out of order with what followed);
* the API server answers the functions' own requests (never the stand-ins') with 5xx, and
  their writes with 409 Conflict, on a share of requests, before serving them;
* IPAM is slow throughout and fails outright for spells (crash-looping);
* a function process is killed with a request in flight: either as it arrives, or after the
  handler did its work but before it answered; the broker retries, a new process cold-starts;
* the event source is restarted mid-batch (events in between are lost; resync recovers).

One `random.Random(seed)` drives every decision; thread scheduling still varies, so a seed
fixes the fault rates and the schedule, not each fault's exact victim.
"""

from __future__ import annotations

import random
import socket
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, cast

from cloudevents.core.base import BaseCloudEvent

from dhcpless.keys import FunctionName
from dhcpless_sandbox.apiserver.rbac import SERVICE_ACCOUNT_PREFIX
from dhcpless_sandbox.apiserver.request import RequestInfo
from dhcpless_sandbox.apiserver.status import ApiError
from dhcpless_sandbox.eventing.faults import Faults
from dhcpless_sandbox.runtime.runner import FunctionService

WSGI = Callable[..., Any]
_WRITES = frozenset({"create", "update", "patch"})


@dataclass(frozen=True)
class ChaosSettings:
    """Shares of events or requests that get each fault; the defaults suit the demo."""

    seed: int = 0
    drop: float = 0.05
    duplicate: float = 0.05
    reorder: float = 0.05
    delay: float = 0.05
    max_delay: float = 1.5
    api_error: float = 0.03
    api_conflict: float = 0.05
    kill: float = 0.02
    ipam_delay: float = 0.002
    ipam_outage: tuple[float, float] = (1.5, 0.5)
    """Every first seconds, IPAM fails for the second seconds."""
    source_restarts: float = 3.0
    """Seconds between event-source restarts."""
    slow_function: str = ""
    """A function that answers every request `slow_seconds` late ("": none). Under the
    synchronous broker its source's adapter stops reading its watch meanwhile, and a bounded
    watch (`WorldSettings.watch_limit`) is closed by the API server (issue 25)."""
    slow_seconds: float = 0.0

    def faults(self) -> Faults:
        return Faults(self.drop, self.duplicate, self.reorder, self.seed)


class Chaos:
    """The fault hooks and schedules; `injected` counts what was actually injected, by kind."""

    def __init__(self, settings: ChaosSettings) -> None:
        self.settings = settings
        self.injected: Counter[str] = Counter()
        self._random = random.Random(settings.seed)
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._timers: list[threading.Timer] = []
        self._thread: threading.Thread | None = None

    def roll(self, share: float, kind: str) -> bool:
        """True (and counted) for `share` of calls."""
        with self._lock:
            hit = share > 0 and self._random.random() < share
            self.injected[kind] += hit
        return hit

    def count(self, kind: str, n: int = 1) -> None:
        with self._lock:
            self.injected[kind] += n

    # --- the API server's fault hook ------------------------------------------------------
    def api_fault(self, info: RequestInfo) -> ApiError | None:
        """5xx or 409 for a share of the functions' requests; watches and stand-ins untouched."""
        if not _is_function(info.identity) or info.verb == "watch":
            return None
        if info.verb in _WRITES and self.roll(self.settings.api_conflict, "api_409_conflict"):
            why = "the object has been modified; please apply your changes to the latest version"
            return ApiError(409, "Conflict", f"Operation cannot be fulfilled: {why}")
        if self.roll(self.settings.api_error, "api_5xx"):
            return ApiError(503, "ServiceUnavailable", "the server is currently unable to handle")
        return None

    # --- events: delay ----------------------------------------------------------------------
    def delaying(self, publish: Callable[..., int]) -> Callable[..., int]:
        """Wrap the broker's ingress: a share of events is accepted now, delivered late."""

        def publish_maybe_later(event: BaseCloudEvent, ttl: int | None = None) -> int:
            if ttl is None and self.roll(self.settings.delay, "event_delayed"):
                with self._lock:
                    wait = self._random.uniform(0.1, self.settings.max_delay)
                timer = threading.Timer(wait, publish, (event,))
                with self._lock:  # after stop() no timer may start: it would outlive the world
                    if not self._stop.is_set():
                        self._timers.append(timer)
                        timer.start()
                        return 202
            return publish(event, ttl)

        return publish_maybe_later

    # --- function processes killed mid-request -----------------------------------------------
    def killing(self, service: FunctionService, factory: Callable[[], WSGI]) -> Callable[[], WSGI]:
        """Wrap a service's app factory so a share of requests dies with the process."""

        def build() -> WSGI:
            app = factory()

            def middleware(environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
                if self.roll(self.settings.kill / 2, "function_killed_on_arrival"):
                    return _die(service, environ, start_response)
                saved: list[Any] = []
                body = b"".join(app(environ, lambda *args: saved.append(args)))
                if self.roll(self.settings.kill / 2, "function_killed_before_answer"):
                    return _die(service, environ, start_response)
                start_response(*saved[0])
                return [body]

            return middleware

        return build

    # --- one function slow ----------------------------------------------------------------------
    def slowing(self, factory: Callable[[], WSGI]) -> Callable[[], WSGI]:
        """Wrap an app factory so every request is answered `slow_seconds` late."""

        def build() -> WSGI:
            app = factory()

            def middleware(environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
                self._stop.wait(self.settings.slow_seconds)
                self.count("function_slowed")
                return cast(Iterable[bytes], app(environ, start_response))

            return middleware

        return build

    # --- schedules: IPAM outages, event-source restarts --------------------------------------
    def run_schedules(self, ipam: Any, restart_source: Callable[[], None]) -> threading.Thread:
        self._thread = threading.Thread(
            target=self._schedules, args=(ipam, restart_source), daemon=True, name="chaos"
        )
        self._thread.start()
        return self._thread

    def stop(self) -> None:
        """End the schedules and drop events still held back (call before stopping the world)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        with self._lock:
            for timer in self._timers:
                timer.cancel()

    def _schedules(self, ipam: Any, restart_source: Callable[[], None]) -> None:
        every, outage = self.settings.ipam_outage
        started, next_restart = time.monotonic(), self.settings.source_restarts
        while not self._stop.wait(every):
            ipam.failing = True
            self.count("ipam_outage")
            self._stop.wait(outage)
            ipam.failing = False
            if time.monotonic() - started >= next_restart:
                restart_source()
                self.count("event_source_restarted")
                next_restart += self.settings.source_restarts


def _is_function(identity: str) -> bool:
    name = identity.rsplit(":", 1)[-1]
    return identity.startswith(SERVICE_ACCOUNT_PREFIX) and name in set(FunctionName)


def _die(service: FunctionService, environ: dict[str, Any], start: Any) -> Iterable[bytes]:
    """Close the connection with no answer and take the server down (the broker sees a
    network error and retries; the next request cold-starts)."""
    sock = environ.get("werkzeug.socket")
    if sock is not None:
        sock.shutdown(socket.SHUT_RDWR)
    service.kill()
    start("503 Service Unavailable", [])  # never reaches the closed connection
    return []
