"""One run of a host's answered-claims path at a time in a process.

With several pools the claims of one host are answered close together, and a broker that
delivers without waiting (the asynchronous model, or several Triggers) hands both answers to
the process at once: both found every claim answered and both ran the pipeline, so the second
run's Secret create met the first's Secret (AlreadyExists, a wasted write and a full set of
reads). client-go's work queue never gives a key that is being processed to a second worker
(`util/workqueue/queue.go`, `Type.Get` / `Type.Done` and the `processing` set); here the second
delivery of the same host waits for the first, then finds its claim version decided on
(`chain.hints.Decided`) and stops without a read. Different hosts never wait on each other.
Another replica is not covered (each process has its own locks): there the create still finds
the object, which the pipeline already handles (`act.Found`).
"""

from __future__ import annotations

import threading
from collections.abc import Hashable, Iterator
from contextlib import contextmanager


class PerKey:
    """A lock per key, kept only while someone holds or waits for it (no growth at rest)."""

    def __init__(self) -> None:
        self._guard = threading.Lock()
        self._locks: dict[Hashable, tuple[threading.Lock, list[int]]] = {}

    @contextmanager
    def one(self, key: Hashable) -> Iterator[None]:
        with self._guard:
            lock, users = self._locks.setdefault(key, (threading.Lock(), [0]))
            users[0] += 1
        try:
            with lock:
                yield
        finally:
            with self._guard:
                users[0] -= 1
                if not users[0]:
                    del self._locks[key]

    def __len__(self) -> int:
        """Keys in use now (tests: nothing is kept once every run is done)."""
        with self._guard:
            return len(self._locks)
