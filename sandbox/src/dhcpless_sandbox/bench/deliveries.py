"""Every delivery attempt the bench's Broker makes, sorted by what caused it.

Exists because "invocations per host" must be the event-driven chain's own work, and a loaded
run showed it was not (issue 17): one IPPool event more or less moved `invocations_per_host` by
1/N. The Broker also delivers events no host's chain causes, in numbers that depend on timing:
* **pool events** — IPAM writes a pool's status after allocating, and coalesces those writes
  when busy (ip-address-manager `ipam/ippool_manager.go` `UpdateAddresses` rewrites the pool's
  status once per reconcile, however many claims it served), so their number varies from run
  to run; ipclaim-fulfilment answers each with one LIST (`chain.gather.ipam.failed_in_pool`);
* **resync ticks** — the PingSource's events (`sandbox.runtime.wiring.PING_TYPE`);
* **redeliveries** — a second attempt of the same event to the same Trigger (a 5xx or a
  timeout: knative/eventing `pkg/kncloudevents/event_dispatcher.go` retries it).
`CountingDispatcher` counts each attempt at the moment it is made — the same moment the function
service counts an invocation — so the classes add up to the invocations of any window.
"""

from __future__ import annotations

import threading
from collections import Counter
from enum import StrEnum

from cloudevents.core.base import BaseCloudEvent

from dhcpless_sandbox.eventing.delivery import Delivery, Outcome, Subscriber
from dhcpless_sandbox.eventing.dispatch import Answer, Connections, Dispatcher
from dhcpless_sandbox.runtime.wiring import PING_TYPE


class Cause(StrEnum):
    """Why the Broker delivered an event to a function."""

    CHAIN = "chain"
    POOL = "pool_events"
    TICK = "resync_ticks"
    REDELIVERY = "redeliveries"


POOL_KIND = "IPPool"


def cause(event: BaseCloudEvent, seen_before: bool) -> Cause:
    """The class of one attempt (pure: tested without a Broker)."""
    if seen_before:
        return Cause.REDELIVERY
    if event.get_type() == PING_TYPE:
        return Cause.TICK
    kind = event.get_attributes().get("kind")
    return Cause.POOL if kind == POOL_KIND else Cause.CHAIN


class CountingDispatcher(Dispatcher):
    """The Broker's dispatcher, counting each attempt by `Cause` before making it."""

    def __init__(self, workers: int, namespace: str, connections: Connections) -> None:
        super().__init__(workers, namespace, connections)
        self._lock = threading.Lock()
        self._seen: set[tuple[int, str]] = set()
        self._counts: Counter[Cause] = Counter()

    def attempt(
        self, subscriber: Subscriber, event: BaseCloudEvent, delivery: Delivery
    ) -> tuple[Outcome, Answer, BaseCloudEvent | None]:
        key = (id(subscriber), event.get_id())
        with self._lock:
            self._counts[cause(event, key in self._seen)] += 1
            self._seen.add(key)
        return super().attempt(subscriber, event, delivery)

    def counts(self) -> Counter[Cause]:
        """A copy of the counts so far (subtract two copies for a window)."""
        with self._lock:
            return Counter(self._counts)
