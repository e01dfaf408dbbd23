"""Reading a request's body within the edge's limits (`dhcpless.limits`: why those numbers): a
body declared too big is refused before a byte is read (413), one that does not arrive in time
is cut off by the process's one watchdog thread (400); either way the connection is ended after
the answer, so the server never reads the rest.
"""

from __future__ import annotations

import contextlib
import functools
import socket
import time
from typing import Final, Protocol

from werkzeug.exceptions import ClientDisconnected

from dhcpless.errors import InvalidInput
from dhcpless.limits import BODY_READ_TIMEOUT, MAX_EVENT_BYTES
from dhcpless.serving import watchdog

CHUNK: Final = 64 * 1024


SOCKET_KEYS: Final = ("gunicorn.socket", "werkzeug.socket")
"""Where gunicorn and werkzeug's server put the client socket in the WSGI environ."""


class BodyRefused(InvalidInput):
    """The request body broke a limit; the answer closes the connection."""

    status = 400


class BodyTooLarge(BodyRefused):
    """More than `MAX_EVENT_BYTES`: 413, not retried by Knative."""

    status = 413


class BodyTooSlow(BodyRefused):
    """Not all there within `BODY_READ_TIMEOUT`: 400, not retried by Knative."""


class Readable(Protocol):
    def read(self, size: int = -1, /) -> bytes: ...


def read_body(
    stream: Readable,
    declared: int | None,
    sock: socket.socket | None,
    limit: int = MAX_EVENT_BYTES,
    timeout: float = BODY_READ_TIMEOUT,
) -> bytes:
    """The whole body, read in chunks under one deadline; never more than `limit` + one chunk.

    `declared` is the Content-Length (None when chunked): too big a declaration is refused
    before any byte is read. A per-read socket timeout would not bound a sender that drips a
    byte at a time (the servers loop over many reads per chunk), so when the server gives the
    socket, an alarm on the process's one watchdog thread (`dhcpless.serving.watchdog`, not a thread
    per request) shuts its read side at the deadline and the pending read ends at once.
    """
    cutter = _cutter(sock, timeout)
    try:
        if declared is not None and declared > limit:
            raise BodyTooLarge(f"event of {declared} bytes is above the limit of {limit}")
        body = _read_all(stream, limit, time.monotonic() + timeout)
        if declared is not None and len(body) < declared:  # cut off at the deadline
            raise BodyTooSlow("event body did not arrive in time")
        return body
    except BodyRefused:
        if sock is not None:  # the server would read (and drop) the rest before the next
            shut_reading(sock)  # request on this connection: end it after the answer instead
        raise
    finally:
        if cutter is not None:
            cutter.cancel()


def _read_all(stream: Readable, limit: int, deadline: float) -> bytes:
    chunks, size = [], 0
    while chunk := _chunk(stream):
        size += len(chunk)
        if size > limit:
            raise BodyTooLarge(f"event is above the limit of {limit} bytes")
        if time.monotonic() > deadline:
            raise BodyTooSlow("event body did not arrive in time")
        chunks.append(chunk)
    return b"".join(chunks)


def _chunk(stream: Readable) -> bytes:
    """One read; a connection cut short (by `_cutter` or the sender) is a slow body."""
    try:
        return stream.read(CHUNK)
    except (OSError, ClientDisconnected):  # gunicorn: NoMoreData; werkzeug: ClientDisconnected
        raise BodyTooSlow("event body did not arrive in time") from None


def _cutter(sock: socket.socket | None, timeout: float) -> watchdog.Alarm | None:
    if sock is None:
        return None
    return watchdog.SHARED.arm(timeout, functools.partial(shut_reading, sock))


def shut_reading(sock: socket.socket) -> None:
    """End the pending and every later read of `sock` (a deadline passed); sending stays."""
    with contextlib.suppress(OSError):  # already closed: nothing left to cut
        sock.shutdown(socket.SHUT_RD)
