"""The gunicorn worker the functions run: gthread, with a deadline on reading a request head.

gunicorn's gthread worker hands a connection to a thread once its first bytes arrive
(gunicorn `workers/gthread.py`, `ThreadWorker.handle`: it waits for data, then parses the head
with blocking reads). A client that sends part of a head and then drips or stalls ("header
slowloris") holds that thread for as long as it likes: six such connections held every thread
of a function, probes included (issue 24, finding 7). The body already has its deadline
(`serving.body.read_body`); this worker gives the head one: an alarm on the process's one watchdog
thread (`serving.watchdog`) shuts the socket's read side `limits.HEAD_READ_TIMEOUT` after the
thread took the connection, unless the head was parsed by then (`handle_request` starts). The
pending read then ends, gunicorn drops the connection as a premature disconnection, and the
thread is free. queue-proxy shields a function in a cluster; this covers anything that reaches
the pod port directly.
"""

from __future__ import annotations

import functools
import logging
from typing import Any

from gunicorn.http.errors import (  # type: ignore[import-untyped]
    LimitRequestHeaders,
    LimitRequestLine,
)
from gunicorn.util import write_nonblock  # type: ignore[import-untyped]
from gunicorn.workers.gthread import ThreadWorker  # type: ignore[import-untyped]

from dhcpless import limits
from dhcpless.serving import watchdog
from dhcpless.serving.body import shut_reading

log = logging.getLogger(__name__)

_ALARM = "_dhcpless_head_alarm"


class HeadGuardedWorker(ThreadWorker):  # type: ignore[misc]  # gunicorn ships no type hints
    """`gthread` whose threads wait `limits.HEAD_READ_TIMEOUT` at most for a request head."""

    def handle(self, conn: Any) -> Any:
        alarm = watchdog.SHARED.arm(
            limits.HEAD_READ_TIMEOUT, functools.partial(shut_reading, conn.sock)
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

    def handle_error(self, req: Any, client: Any, addr: Any, exc: BaseException) -> None:
        """A head above gunicorn's limits is answered as our error handler answers a refused
        body (`serving.web`: the status, one text/plain line saying why, the connection
        closed), not with gunicorn's HTML page (gunicorn `workers/base.py`, `handle_error`:
        414 for the request line, 431 for the header fields, through `util.write_error`).
        Every other error is gunicorn's."""
        answer = head_refusal(exc)
        if answer is None:
            super().handle_error(req, client, addr, exc)
            return
        log.warning("rejected (%d): %s", answer[0], answer[2])
        try:
            write_nonblock(client, refusal_bytes(*answer))
        except OSError:
            log.debug("the refusal of an oversized head could not be sent")


def head_refusal(exc: BaseException) -> tuple[int, str, str] | None:
    """Pure: (status, reason phrase, why) for a head above gunicorn's limits, else None."""
    if isinstance(exc, LimitRequestLine):
        return 414, "URI Too Long", f"request line is above the limit: {exc}"
    if isinstance(exc, LimitRequestHeaders):
        return 431, "Request Header Fields Too Large", f"request headers are above the limit: {exc}"
    return None


def refusal_bytes(status: int, phrase: str, why: str) -> bytes:
    """The whole HTTP/1.1 answer: `why` as one text/plain line, and the connection closed."""
    body = f"{why}\n".encode()
    head = (
        f"HTTP/1.1 {status} {phrase}\r\nConnection: close\r\n"
        f"Content-Type: text/plain; charset=utf-8\r\nContent-Length: {len(body)}\r\n\r\n"
    )
    return head.encode("latin-1") + body


WORKER_CLASS = f"{__name__}.{HeadGuardedWorker.__name__}"
"""gunicorn's `worker_class` setting for it."""
