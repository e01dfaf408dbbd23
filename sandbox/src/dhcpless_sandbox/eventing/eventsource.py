"""ApiServerSource stand-in (knative.md §a, §b): watch the API, send one CloudEvent per change.

The real adapter runs one client-go reflector per watched resource: LIST, then WATCH from the
list's resourceVersion. Its store ignores the LIST (`Replace` is a no-op), so objects that exist
when the adapter (re)starts produce no events; only watch ADDED/MODIFIED/DELETED do. Events are
sent synchronously, retried a few times on transport errors and some status codes, then
dropped. The pieces live beside this module: `reflector` (LIST-then-WATCH), `source_events`
(the events' shape), `faults` (seeded drop/duplicate/reorder), `source_namespaces` (the
`namespaceSelector`).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cloudevents.core.v1.event import CloudEvent
from kubernetes import client

from dhcpless_sandbox.controllers.reflector import (
    Reflector,
    WatchedResource,
    WatchEvent,
)
from dhcpless_sandbox.eventing.faults import FaultInjector, Faults
from dhcpless_sandbox.eventing.source_events import Mode, make_event
from dhcpless_sandbox.eventing.source_namespaces import NamespaceScope
from dhcpless_sandbox.eventing.source_scoped import PerNamespace

log = logging.getLogger(__name__)

Sink = Callable[[CloudEvent], int]
"""Where events go: returns the HTTP status the receiver answered (broker ingress: 202)."""

_SEND_RETRIES = 5
_SEND_BACKOFF = 0.05
_RETRIABLE = frozenset({404, 413, 425, 429, 502, 503, 504})
"""sdk-go's `defaultRetriableErrors`: only these codes (and transport errors) are retried."""


@dataclass(frozen=True)
class SourceResource:
    """One `spec.resources[]` entry plus the mode it is emitted in."""

    resource: WatchedResource
    mode: Mode = Mode.REFERENCE


class ApiServerSource:
    """Watches the API and sends one CloudEvent per watch event to `sink`.

    `stop()` then `start()` behaves like an adapter pod restart: the new reflectors LIST
    again and emit nothing for what they find, so everything in between is lost.
    """

    def __init__(
        self,
        api: client.ApiClient,
        resources: list[SourceResource],
        sink: Sink,
        *,
        source: str,
        faults: Faults | None = None,
        api_for: Callable[[SourceResource], client.ApiClient] | None = None,
        namespace_selector: str | None = None,
    ) -> None:
        """`api_for`: a client per watched resource (one ServiceAccount per source under RBAC).
        `namespace_selector`: a label selector on Namespaces (`spec.namespaceSelector`); events
        from namespaces it does not select are not sent (`source_namespaces`). None or "" (an
        empty selector, every namespace): no filtering beyond each resource's own namespace."""
        self._api, self._resources, self._sink, self._source = api, resources, sink, source
        self._api_for = api_for
        self._scope = NamespaceScope(api, namespace_selector) if namespace_selector else None
        self._scoped: PerNamespace | None = None
        self._faults = FaultInjector(faults or Faults())
        self._lock = threading.Lock()
        self._reflectors: list[Reflector] = []
        self.sent = 0
        self._unsent = 0

    @property
    def expired(self) -> int:
        """Re-watches answered 410 Gone since start: each a relist whose `Replace` is a no-op
        (knative/eventing `pkg/adapter/apiserver/delegate.go`), so what changed meanwhile is
        never an event (the world adds up restarts: `World.watch_gaps`)."""
        return sum(r.expired for r in self._all())

    def _all(self) -> list[Reflector]:
        return self._reflectors + (self._scoped.reflectors if self._scoped else [])

    @property
    def dropped(self) -> int:
        """Events lost: dropped by fault injection, or given up on after the send retries."""
        return self._faults.dropped + self._unsent

    def start(self) -> None:
        if self._scope is not None:  # one reflector per resource and namespace: `source_scoped`
            self._scoped = PerNamespace(self._resources, self._client, self._entry_handler)
            self._scope.listen(self._scoped.select)
            self._scope.start()
            return
        for entry in self._resources:
            api = self._api_for(entry) if self._api_for else self._api
            reflector = Reflector(api, entry.resource, self._handler(entry.mode))
            reflector.start()
            self._reflectors.append(reflector)

    def stop(self) -> None:
        """Stop watching; a held-back (reordered) event is lost, as in a crash."""
        for reflector in self._reflectors:
            reflector.stop()
        self._reflectors = []
        if self._scope is not None:
            self._scope.stop()
        if self._scoped is not None:
            self._scoped.stop()
        with self._lock:
            self._faults.forget_held()

    def wait_synced(self, timeout: float = 10.0) -> bool:
        """True once every reflector has listed and is watching."""
        scoped = self._scope is None or self._scope.wait_synced(timeout)
        return scoped and all(r.wait_synced(timeout) for r in self._all())

    def _client(self, entry: SourceResource) -> client.ApiClient:
        return self._api_for(entry) if self._api_for else self._api

    def _entry_handler(self, entry: SourceResource) -> Callable[[WatchEvent, dict[str, Any]], None]:
        return self._handler(entry.mode)

    def _handler(self, mode: Mode) -> Callable[[WatchEvent, dict[str, Any]], None]:
        def handle(kind: WatchEvent, obj: dict[str, Any]) -> None:
            if self._selected(obj):
                self._emit(make_event(obj, kind, mode, self._source))

        return handle

    def selects(self, namespace: str) -> bool:
        """Whether events from `namespace` are sent (always, without a namespaceSelector)."""
        return self._scope is None or self._scope.admits(namespace)

    def _selected(self, obj: dict[str, Any]) -> bool:
        """Cluster-scoped objects and, without a selector, every namespace pass."""
        namespace = obj.get("metadata", {}).get("namespace")
        return not namespace or self.selects(str(namespace))

    def _emit(self, event: CloudEvent) -> None:
        with self._lock:
            batch = self._faults.apply(event)
        for item in batch:
            self._send(item)

    def _send(self, event: CloudEvent) -> None:
        for attempt in range(_SEND_RETRIES + 1):
            try:
                status = self._sink(event)
            except OSError:
                status = 0
            if 200 <= status < 300:
                self.sent += 1
                return
            if status and status not in _RETRIABLE:
                break
            time.sleep(_SEND_BACKOFF * 2.0**attempt)
        self._unsent += 1
        log.warning("failed to send cloudevent %s (%s)", event.get_id(), event.get_type())
