"""The skeleton the IPAM and BMO stand-ins share: informers feeding a work queue.

Exists because both controllers wire the same loop, as controller-runtime does: one reflector
per watched resource, everything the LIST returns enqueued like an ADDED event (the informer's
initial sync), every watch event mapped to a key, and the keys reconciled by a `WorkQueue`.
Start order is queue then watches; stop order is watches then queue.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Sequence
from typing import Any, Generic, TypeVar

from kubernetes import client

from dhcpless_sandbox.controllers.reflector import Reflector, WatchedResource, WatchEvent
from dhcpless_sandbox.controllers.workqueue import WorkQueue

K = TypeVar("K", bound=Hashable)


class Controller(ABC, Generic[K]):
    """Subclasses say which key an event touches (`_on_event`) and how to reconcile it."""

    def __init__(
        self,
        api: client.ApiClient,
        name: str,
        resources: Sequence[WatchedResource],
        workers: int = 1,
    ) -> None:
        self._queue: WorkQueue[K] = WorkQueue(name, self.reconcile, workers)
        self._reflectors = [
            Reflector(api, resource, self._on_event, self._on_list) for resource in resources
        ]

    def start(self) -> None:
        self._queue.start()
        for reflector in self._reflectors:
            reflector.start()

    def stop(self) -> None:
        for reflector in self._reflectors:
            reflector.stop()
        self._queue.stop()

    def _on_list(self, items: list[dict[str, Any]]) -> None:
        for obj in items:
            self._on_event(WatchEvent.ADDED, obj)

    @abstractmethod
    def _on_event(self, kind: WatchEvent, obj: dict[str, Any]) -> None:
        """Enqueue (or otherwise handle) one watched object."""

    @abstractmethod
    def reconcile(self, key: K) -> float | None:
        """Handle one key; seconds until it should be handled again, or None."""
