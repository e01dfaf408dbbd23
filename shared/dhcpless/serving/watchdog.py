"""One thread that runs callbacks at their deadlines, shared by every request of a process.

The edge bounds how long a request body may take to arrive by shutting the socket's read side
at a deadline (`dhcpless.limits`). A `threading.Timer` per request did that with one extra
thread per request: under a burst, as many idle threads as requests in flight. Here one daemon
thread, started on first use, sleeps until the earliest deadline; arming and cancelling are a
heap push and a flag under one lock, so N requests cost no thread beyond the first. Arming
wakes the thread only when the new alarm is the earliest, and the thread drops cancelled
alarms only when it wakes at a deadline (not as soon as they are cancelled, which emptied the
heap after each quick request): every request arms the same timeout, so a burst of requests
wakes it about twice per timeout instead of once per request, each wake a GIL handoff.
"""

from __future__ import annotations

import heapq
import itertools
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass(order=True)
class Alarm:
    """One armed callback; `cancel()` before its deadline and it never runs."""

    deadline: float
    seq: int
    action: Callable[[], None] = field(compare=False)
    cancelled: bool = field(default=False, compare=False)

    def cancel(self) -> None:
        self.cancelled = True


class Watchdog:
    """A heap of alarms and the single thread that fires them (started lazily)."""

    def __init__(self, name: str = "dhcpless-watchdog") -> None:
        self._name = name
        self._heap: list[Alarm] = []
        self._seq = itertools.count()
        self._wake = threading.Condition()
        self._thread: threading.Thread | None = None

    def arm(self, seconds: float, action: Callable[[], None]) -> Alarm:
        """Run `action` on the watchdog thread `seconds` from now, unless cancelled first."""
        alarm = Alarm(time.monotonic() + seconds, next(self._seq), action)
        with self._wake:
            heapq.heappush(self._heap, alarm)
            self._ensure_thread()
            if self._heap[0] is alarm:  # else the thread wakes earlier anyway: no GIL handoff
                self._wake.notify()
        return alarm

    def pending(self) -> int:
        """Alarms neither fired nor cancelled (for tests and metrics)."""
        with self._wake:
            return sum(1 for a in self._heap if not a.cancelled)

    def _ensure_thread(self) -> None:
        if self._thread is None or not self._thread.is_alive():
            self._thread = threading.Thread(target=self._run, name=self._name, daemon=True)
            self._thread.start()

    def _run(self) -> None:
        while True:
            for action in self._due():
                action()

    def _due(self) -> list[Callable[[], None]]:
        """Wait until at least one live alarm is due; pop and return every due one."""
        with self._wake:
            while True:
                now = time.monotonic()
                if self._heap and self._heap[0].deadline <= now:
                    due = []  # the due ones, and the cancelled ones after them
                    while self._heap and (self._heap[0].deadline <= now or self._heap[0].cancelled):
                        alarm = heapq.heappop(self._heap)
                        due += [] if alarm.cancelled else [alarm.action]
                    if due:
                        return due
                    continue
                self._wake.wait(self._heap[0].deadline - now if self._heap else None)


SHARED = Watchdog()
"""The process's watchdog: every request's body deadline is an alarm on this one thread."""
