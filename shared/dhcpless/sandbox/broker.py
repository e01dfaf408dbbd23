"""Broker and Trigger stand-in (knative.md §c): fan-out, retries, dead letters, replies.

Ingress takes an event (an in-process call, or HTTP POST to `start_http()`'s URL), stamps
`knativearrivaltime`, and fans it out in parallel, one delivery per matching Trigger, as the
InMemoryChannel does. Each delivery is a REAL HTTP request and follows the Trigger's delivery
spec: `retry` extra attempts with the spec's backoff, then the dead-letter sink after the last
failure. A 2xx CloudEvent reply goes back into this broker with the TTL decremented.

This module is the fan-out and the retry loop; the pieces live beside it: `filters` (Trigger
filters), `delivery` (the delivery spec and response classification), `dispatch` (one HTTP
attempt), `ingress` (the HTTP front door). Their public names are re-exported here.
"""

from __future__ import annotations

import logging
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime

from cloudevents.core.base import BaseCloudEvent
from werkzeug.serving import BaseWSGIServer

from dhcpless.sandbox.delivery import (
    BackoffPolicy,
    Delivery,
    Outcome,
    Subscriber,
    UrlSubscriber,
    classify,
    parse_duration,
)
from dhcpless.sandbox.dispatch import NO_ANSWER, Answer, Dispatcher
from dhcpless.sandbox.event_copy import with_attributes
from dhcpless.sandbox.filters import (
    Attributes,
    Filter,
    attributes_filter,
    subscriptions_filter,
    trigger_filter,
)
from dhcpless.sandbox.ingress import ingress_app
from dhcpless.sandbox.runner import halt, serve

__all__ = ["MAX_TTL", "Broker", "BrokerStats", "Trigger"]
__all__ += ["BackoffPolicy", "Delivery", "Outcome", "Subscriber", "UrlSubscriber"]
__all__ += ["classify", "parse_duration"]
__all__ += ["Attributes", "Filter", "attributes_filter", "subscriptions_filter", "trigger_filter"]

log = logging.getLogger(__name__)

MAX_TTL = 255
"""broker-ingress `MAX_TTL`: how many times a reply chain may re-enter the broker."""


@dataclass(frozen=True)
class Trigger:
    """One Trigger: which events (`filter`) go to whom (`subscriber`), and how (`delivery`)."""

    name: str
    subscriber: Subscriber
    filter: Filter = field(default=lambda _: True)
    delivery: Delivery = field(default_factory=Delivery)


@dataclass
class BrokerStats:
    """What tests read to see retries, dead letters, drops and replies actually happen."""

    accepted: int = 0
    deliveries: int = 0
    retries: int = 0
    dead_lettered: int = 0
    dropped: int = 0
    replies: int = 0


class Broker:
    """An MTChannelBasedBroker + InMemoryChannel in one object."""

    def __init__(self, name: str = "default", *, workers: int = 8, namespace: str = "") -> None:
        self.name, self.namespace = name, namespace
        self.stats = BrokerStats()
        self._triggers: list[Trigger] = []
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="broker")
        self._dispatcher = Dispatcher(workers, namespace)
        self._lock = threading.Condition()
        self._in_flight = 0
        self._server: BaseWSGIServer | None = None

    def add_trigger(self, trigger: Trigger) -> None:
        self._triggers.append(trigger)

    def publish(self, event: BaseCloudEvent, ttl: int | None = None) -> int:
        """broker-ingress: 202 when accepted; 400 when the TTL ran out."""
        ttl = MAX_TTL if ttl is None else ttl - 1
        if ttl <= 0:
            self._count("dropped")
            return 400
        stamped = with_attributes(event, knativearrivaltime=datetime.now(UTC).isoformat())
        self._count("accepted")
        for trigger in self._triggers:
            if trigger.filter(stamped.get_attributes()):
                self._submit(trigger, stamped, ttl)
        return 202

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

    def _deliver_then_release(self, trigger: Trigger, event: BaseCloudEvent, ttl: int) -> None:
        try:
            self._deliver(trigger, event, ttl)
        except Exception:
            log.exception("trigger %s: delivery crashed", trigger.name)
        finally:
            with self._lock:
                self._in_flight -= 1
                self._lock.notify_all()

    def _deliver(self, trigger: Trigger, event: BaseCloudEvent, ttl: int) -> None:
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
                    self.publish(reply, ttl)
                return
            if outcome is Outcome.FAIL:
                break
        self._dead_letter(trigger, event, last)

    def _dead_letter(self, trigger: Trigger, event: BaseCloudEvent, last: Answer) -> None:
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
            return
        self._count("dead_lettered")
        self._dispatcher.dead_letter(sink, event, last, trigger.delivery.timeout)
