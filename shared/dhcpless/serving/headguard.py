"""The gunicorn worker the functions run: gthread, with a deadline on reading a request head.

gunicorn's gthread worker hands a connection to a thread once its first bytes arrive
(gunicorn `workers/gthread.py`, `ThreadWorker.handle`: it waits for data, then parses the head
with blocking reads). A client that sends part of a head and then drips or stalls ("header
slowloris") holds that thread for as long as it likes: six such connections held every thread
of a function, probes included (issue 24, finding 7). The body already has its deadline
(`limits.read_body`); this worker gives the head one: an alarm on the process's one watchdog
thread (`serving.watchdog`) shuts the socket's read side `limits.HEAD_READ_TIMEOUT` after the
thread took the connection, unless the head was parsed by then (`handle_request` starts). The
pending read then ends, gunicorn drops the connection as a premature disconnection, and the
thread is free. queue-proxy shields a function in a cluster; this covers anything that reaches
the pod port directly.
"""

from __future__ import annotations

import functools
from typing import Any

from gunicorn.workers.gthread import ThreadWorker  # type: ignore[import-untyped]

from dhcpless import limits
from dhcpless.serving import watchdog

_ALARM = "_dhcpless_head_alarm"


class HeadGuardedWorker(ThreadWorker):  # type: ignore[misc]  # gunicorn ships no type hints
    """`gthread` whose threads wait `limits.HEAD_READ_TIMEOUT` at most for a request head."""

    def handle(self, conn: Any) -> Any:
        alarm = watchdog.SHARED.arm(
            limits.HEAD_READ_TIMEOUT, functools.partial(limits.shut_reading, conn.sock)
        )
        setattr(conn, _ALARM, alarm)
        try:
            return super().handle(conn)
        finally:
            alarm.cancel()

    def handle_request(self, req: Any, conn: Any) -> Any:
        """The head is parsed: its deadline no longer applies (the body has its own)."""
        alarm = getattr(conn, _ALARM, None)
        if alarm is not None:
            alarm.cancel()
        return super().handle_request(req, conn)


WORKER_CLASS = f"{__name__}.{HeadGuardedWorker.__name__}"
"""gunicorn's `worker_class` setting for it."""
