"""Broker and Trigger stand-in (knative.md §c): fan-out, retries, dead letters, replies.

Ingress takes an event (an in-process call, or HTTP POST to `start_http()`'s URL), stamps
`knativearrivaltime`, and fans it out in parallel, one delivery per matching Trigger, as the
InMemoryChannel does. In the default `BrokerMode.SYNC` ingress answers only once every one of
those deliveries ended (202 when each succeeded or was dead-lettered, 500 otherwise), as the
installed default does (see `BrokerMode`); so a sender that waits, as the ApiServerSource
adapter does, delivers its events in series. `BrokerMode.ASYNC` answers 202 at once and
delivers on a thread pool (an InMemoryChannel with `asyncHandler`).

Each delivery is a REAL HTTP request and follows the Trigger's delivery spec: `retry` extra
attempts with the spec's backoff, then the dead-letter sink after the last failure. A 2xx
CloudEvent reply goes back into this broker with the TTL decremented.

This module is the fan-out and the retry loop; the pieces live beside it: `filters` (Trigger
filters), `delivery` (the delivery spec and response classification), `dispatch` (one HTTP
attempt), `ingress` (the HTTP front door).
"""

from __future__ import annotations

import logging
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime

from cloudevents.core.base import BaseCloudEvent
from werkzeug.serving import BaseWSGIServer

from dhcpless_sandbox.eventing.delivery import (
    BrokerMode,
    Outcome,
)
from dhcpless_sandbox.eventing.dispatch import (
    NO_ANSWER,
    Answer,
    Connections,
    Dispatcher,
    plain_connections,
)
from dhcpless_sandbox.eventing.event_copy import with_attributes
from dhcpless_sandbox.eventing.fanout import fan_out
from dhcpless_sandbox.eventing.ingress import ingress_app
from dhcpless_sandbox.eventing.triggers import BrokerStats, Trigger
from dhcpless_sandbox.runtime.runner import halt, serve

log = logging.getLogger(__name__)

MAX_TTL = 255
"""broker-ingress `MAX_TTL`: how many times a reply chain may re-enter the broker."""

DEFAULT_MODE = BrokerMode.SYNC
"""The mode of a Broker built without one: the installed default's (tests may switch it)."""

_FANOUT_FAILED = 500
"""What the channel, hence ingress, answers when a delivery failed for good
(knative/eventing `pkg/channel/event_receiver.go`, `ServeHTTP`)."""


class Broker:
    """An MTChannelBasedBroker + InMemoryChannel in one object."""

    def __init__(
        self,
        name: str = "default",
        *,
        workers: int = 8,
        namespace: str = "",
        mode: BrokerMode | None = None,
        connections: Connections = plain_connections,
    ) -> None:
        """`workers` sizes the asynchronous pool and the HTTP client (`connections` builds it:
        `dispatch.Dispatcher`); `mode` defaults to `DEFAULT_MODE` read at construction."""
        self.name, self.namespace = name, namespace
        self.mode = DEFAULT_MODE if mode is None else mode
        self.stats = BrokerStats()
        self._triggers: list[Trigger] = []
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="broker")
        self._dispatcher = Dispatcher(workers, namespace, connections)
        self._lock = threading.Condition()
        self._in_flight = 0
        self._server: BaseWSGIServer | None = None

    def add_trigger(self, trigger: Trigger) -> None:
        self._triggers.append(trigger)

    def publish(self, event: BaseCloudEvent, ttl: int | None = None) -> int:
        """broker-ingress: 202 when accepted (SYNC: and delivered); 400 when the TTL ran out;
        SYNC: 500 when a delivery failed and could not be dead-lettered."""
        ttl = MAX_TTL if ttl is None else ttl - 1
        if ttl <= 0:
            self._count("dropped")
            return 400
        stamped = with_attributes(event, knativearrivaltime=datetime.now(UTC).isoformat())
        self._count("accepted")
        matching = [t for t in self._triggers if t.filter(stamped.get_attributes())]
        if self.mode is BrokerMode.ASYNC:
            for trigger in matching:
                self._submit(trigger, stamped, ttl)
            return 202
        return 202 if self._fan_out_and_wait(matching, stamped, ttl) else _FANOUT_FAILED

    def start_http(self) -> str:
        """Serve ingress over HTTP on an ephemeral port; returns `http://host:port/<ns>/<name>`."""
        self._server = serve(ingress_app(self.publish), "ingress")
        return f"http://127.0.0.1:{self._server.server_port}/{self.namespace}/{self.name}"

    def wait_idle(self, timeout: float = 30.0) -> bool:
        """Wait until no delivery (including retries and replies) is in flight."""
        deadline = time.monotonic() + timeout
        with self._lock:
            while self._in_flight and time.monotonic() < deadline:
                self._lock.wait(deadline - time.monotonic())
            return self._in_flight == 0

    def stop(self) -> None:
        if self._server is not None:
            halt(self._server)
        self._pool.shutdown(wait=False, cancel_futures=True)

    def _count(self, name: str) -> None:
        with self._lock:
            setattr(self.stats, name, getattr(self.stats, name) + 1)

    def _submit(self, trigger: Trigger, event: BaseCloudEvent, ttl: int) -> None:
        with self._lock:
            self._in_flight += 1
        self._pool.submit(self._deliver_then_release, trigger, event, ttl)

    def _fan_out_and_wait(self, triggers: list[Trigger], event: BaseCloudEvent, ttl: int) -> bool:
        with self._lock:
            self._in_flight += len(triggers)
        return fan_out(triggers, lambda trigger: self._deliver_then_release(trigger, event, ttl))

    def _deliver_then_release(self, trigger: Trigger, event: BaseCloudEvent, ttl: int) -> bool:
        try:
            return self._deliver(trigger, event, ttl)
        except Exception:
            log.exception("trigger %s: delivery crashed", trigger.name)
            return False
        finally:
            with self._lock:
                self._in_flight -= 1
                self._lock.notify_all()

    def _deliver(self, trigger: Trigger, event: BaseCloudEvent, ttl: int) -> bool:
        """Attempts with the Trigger's backoff; True when delivered or dead-lettered (the
        dispatcher's `send` in knative/eventing `pkg/kncloudevents/event_dispatcher.go`)."""
        delivery, last = trigger.delivery, NO_ANSWER
        for attempt in range(delivery.retry + 1):
            if attempt:
                self._count("retries")
                time.sleep(delivery.delay(attempt - 1))
            self._count("deliveries")
            outcome, last, reply = self._dispatcher.attempt(trigger.subscriber, event, delivery)
            if outcome is Outcome.SUCCESS:
                if reply is not None:
                    self._count("replies")
                    self._publish_reply(reply, ttl)
                return True
            if outcome is Outcome.FAIL:
                break
        return self._dead_letter(trigger, event, last)

    def _publish_reply(self, reply: BaseCloudEvent, ttl: int) -> None:
        """Back into ingress; SYNC waits for it as the dispatcher waits on the reply's POST."""
        if self.mode is BrokerMode.ASYNC:
            self.publish(reply, ttl)
        else:
            fan_out([reply], lambda item: self.publish(item, ttl) == 202, inline_first=False)

    def _dead_letter(self, trigger: Trigger, event: BaseCloudEvent, last: Answer) -> bool:
        sink = trigger.delivery.dead_letter
        if sink is None:
            self._count("dropped")
            log.warning(
                "trigger %s: event %s dropped after %d attempt(s), last status %d",
                trigger.name,
                event.get_id(),
                trigger.delivery.retry + 1,
                last.status,
            )
            return False
        self._count("dead_lettered")
        answer = self._dispatcher.dead_letter(sink, event, last, trigger.delivery.timeout)
        return 200 <= answer.status < 300
