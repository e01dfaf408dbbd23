"""Events posted off the handler's path: one bounded queue, one thread per process.

Exists because a handler that waits for each core/v1 Event create spends a fifth of its API
time on Events nobody reads at once (issue 15: 4 of ~18 requests per host). Upstream
controllers record Events the same way: client-go `tools/record/event.go` (`NewBroadcaster`
queues up to `maxQueuedEvents` and drops when full — `watch.DropIfChannelFull` —; the goroutine
of `StartRecordingToSink` posts them, `recordToSink` retrying a few times) and kopf
`_core/engines/posting.py` (`enqueue` puts without waiting; the `poster` task posts each).

Here: `submit` never blocks and never raises (a full queue drops the Event with a log line);
the thread posts in order, a few tries each (an existing Event of that name is the same
decision, already said: done); `flush` waits, within a bound, until everything queued was
posted — at interpreter exit (`atexit`), at gunicorn's `worker_exit` (deploy/gunicorn_conf.py)
and in tests. What is lost: Events still queued when the process is killed without a graceful
stop (SIGKILL, OOM); the recorder posts the one that nothing later would say again inline
(`kube.events.recorder.INLINE`).
"""

from __future__ import annotations

import atexit
import logging
import os
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from dhcpless.errors import AlreadyExists, Transient

log = logging.getLogger(__name__)

MAX_PENDING = 1000
"""As client-go's `maxQueuedEvents`: beyond it an Event is dropped, never waited for."""
TRIES = 3
RETRY_SECONDS = 0.5
FLUSH_SECONDS = 10.0
"""At exit: half of gunicorn's `graceful_timeout` (20 s), well within Knative's grace period."""


@dataclass(frozen=True)
class Pending:
    """One Event to post: `post` does it; `name` (the Event's) is all that is ever logged."""

    name: str
    post: Callable[[], None]


class Poster:
    """The process's queue of Events and the thread that posts them (started on first use,
    and again in a forked child, where the parent's thread does not exist)."""

    def __init__(self, max_pending: int = MAX_PENDING, retry_seconds: float = RETRY_SECONDS):
        self._queue: queue.Queue[Pending] = queue.Queue(max_pending)
        self._retry = retry_seconds
        self._lock = threading.Lock()
        self._owner: tuple[int, threading.Thread] | None = None
        self._pending: set[str] = set()
        self.dropped = 0

    def submit(self, pending: Pending) -> bool:
        """Queue one Event; False when it was dropped (full queue). Never blocks or raises."""
        self._ensure_thread()
        with self._lock:
            if pending.name in self._pending:
                return True  # the same decision is queued already: one Event
            try:
                self._queue.put_nowait(pending)
            except queue.Full:
                self.dropped += 1
                log.warning("event %s dropped: %d already queued", pending.name, MAX_PENDING)
                return False
            self._pending.add(pending.name)
        return True

    def flush(self, timeout: float = FLUSH_SECONDS) -> bool:
        """Wait until every queued Event was posted (or given up on); False at `timeout`."""
        deadline = time.monotonic() + timeout
        done = self._queue.all_tasks_done
        with done:
            while self._queue.unfinished_tasks:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                done.wait(left)
        return True

    def _ensure_thread(self) -> None:
        with self._lock:
            pid = os.getpid()
            if self._owner is None or self._owner[0] != pid or not self._owner[1].is_alive():
                thread = threading.Thread(target=self._run, name="event-poster", daemon=True)
                self._owner = (pid, thread)
                thread.start()

    def _run(self) -> None:
        while True:
            pending = self._queue.get()
            try:
                post_with_retries(pending, self._retry)
            finally:
                with self._lock:
                    self._pending.discard(pending.name)
                self._queue.task_done()


def post_with_retries(pending: Pending, retry_seconds: float, tries: int = TRIES) -> bool:
    """Post, a few tries while the failure may pass (`Transient`); True when the Event is there.
    Logs the Event's name and the error's type only (an API error may quote a request body)."""
    for attempt in range(tries):
        try:
            pending.post()
            return True
        except AlreadyExists:
            return True
        except Transient as exc:
            why = type(exc).__name__
            log.warning("event %s not posted (%s), try %d", pending.name, why, attempt + 1)
        except Exception as exc:  # refused for good (forbidden, invalid): no retry helps
            log.error("event %s not posted (%s), given up", pending.name, type(exc).__name__)
            return False
        if attempt + 1 < tries:
            time.sleep(retry_seconds * 2**attempt)
    log.error("event %s given up after %d tries", pending.name, tries)
    return False


POSTER = Poster()
"""The process's poster (one per process, as client-go's broadcaster per component)."""


def flush(timeout: float = FLUSH_SECONDS) -> bool:
    """Post what is queued within `timeout` (exit hooks and tests)."""
    return POSTER.flush(timeout)


atexit.register(flush)
