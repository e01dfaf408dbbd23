"""controller-runtime's rate-limited work queue, for the IPAM and BMO stand-ins.

Exists apart from the controllers because it is the one concurrency-sensitive piece they share:
keys are deduplicated (the earliest due time wins), a key is never handled by two workers at
once, a handler's return value schedules the next look, and failures back off per key. The due
times are a heap (client-go `util/workqueue/delaying_queue.go` keeps its waiting items in a
heap too): picking the next key scanned every key before, and the BMO stand-in holds a key
per host, so a 5,000-host batch spent a tenth of the sandbox's time there (issue 28).
"""

from __future__ import annotations

import heapq
import itertools
import logging
import threading
import time
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

log = logging.getLogger(__name__)

K = TypeVar("K", bound=Hashable)

Handler = Callable[[K], float | None]
"""Handles one key; returns seconds until it should be handled again, or None."""

_FAILURE_BASE, _FAILURE_MAX = 0.05, 5.0


class WorkQueue(Generic[K]):
    """A deduplicating delay queue with per-key exponential backoff on errors."""

    def __init__(self, name: str, handler: Handler[K], workers: int = 1) -> None:
        self._name, self._handler, self._workers = name, handler, workers
        self._cond = threading.Condition()
        self._due: dict[K, float] = {}
        self._heap: list[tuple[float, int, K]] = []
        """(due, order, key); an entry whose due time is no longer the key's is stale."""
        self._order = itertools.count()
        self._busy: set[K] = set()
        self._failures: dict[K, int] = {}
        self._stopped = False
        self._threads: list[threading.Thread] = []

    def add(self, key: K, after: float = 0.0) -> None:
        due = time.monotonic() + after
        with self._cond:
            if self._due.get(key, float("inf")) > due:
                self._due[key] = due
                heapq.heappush(self._heap, (due, next(self._order), key))
                self._cond.notify()

    def start(self) -> None:
        for index in range(self._workers):
            thread = threading.Thread(target=self._run, daemon=True, name=f"{self._name}-{index}")
            thread.start()
            self._threads.append(thread)

    def stop(self) -> None:
        with self._cond:
            self._stopped = True
            self._cond.notify_all()
        for thread in self._threads:
            thread.join(timeout=5)

    def _run(self) -> None:
        while (key := self._next()) is not None:
            again = self._handle(key)
            with self._cond:
                self._busy.discard(key)
                if key in self._due:  # added while busy: its heap entry was set aside
                    heapq.heappush(self._heap, (self._due[key], next(self._order), key))
                self._cond.notify_all()
            if again is not None:
                self.add(key, again)

    def _handle(self, key: K) -> float | None:
        try:
            again: float | None = self._handler(key)
        except Exception:
            failures = self._failures[key] = self._failures.get(key, 0) + 1
            log.warning("%s: handling %s failed (%d)", self._name, key, failures, exc_info=True)
            return min(_FAILURE_BASE * 2.0**failures, _FAILURE_MAX)
        self._failures.pop(key, None)
        return again

    def _next(self) -> K | None:
        with self._cond:
            while not self._stopped:
                wait = self._earliest()
                if wait is not None and wait <= 0:
                    key = heapq.heappop(self._heap)[2]
                    del self._due[key]
                    self._busy.add(key)
                    return key
                self._cond.wait(wait)
            return None

    def _earliest(self) -> float | None:
        """Seconds until the earliest key not being handled is due (None: no key). Drops
        stale entries, and those of busy keys (pushed again when their worker is done)."""
        while self._heap:
            due, _, key = self._heap[0]
            if self._due.get(key) == due and key not in self._busy:
                return due - time.monotonic()
            heapq.heappop(self._heap)
        return None
