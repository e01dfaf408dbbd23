"""The edge's resource limits: how big an event may be, how long its body may take to arrive,
how many threads stay free for health probes, and how long one Kubernetes API call may take.

Why these numbers (docs/deploy.md "Requests and timeouts", next to `containerConcurrency`):

* `MAX_EVENT_BYTES`: the largest object the API server stores is about 1.5 MiB (etcd's request
  limit), and a Resource-mode event is that object plus a small envelope. Anything bigger is not
  an ApiServerSource event; it is refused with **413**, which Knative does not retry
  (knative/eventing `pkg/kncloudevents/retries.go` `SelectiveRetry`, knative.md §c) before it is
  read, so memory stays bounded.
* `BODY_READ_TIMEOUT`: a body that has not fully arrived by then is refused with **400** (408
  would be retried) and the connection is closed, so a slow sender holds a thread for this long
  at most. The broker sends whole events at once; only a broken or hostile sender is slow.
* `HEAD_READ_TIMEOUT`: a request head (line and headers) not complete this long after a thread
  took its connection ends the connection (`serving.headguard`). The broker, queue-proxy and
  the kubelet send a head in one write; only a broken or hostile client ("header slowloris")
  is slow, and it must not hold the threads the probes need. Short, because under a stream of
  such connections a probe may wait this long for a thread.
* `HEALTH_THREADS`: gunicorn gets this many threads above `containerConcurrency`. queue-proxy
  admits at most `containerConcurrency` requests (knative/serving `pkg/queue/breaker.go`), but
  its readiness probes and the kubelet's go around that limit; with spare threads a probe never
  waits behind work.
* `API_TIMEOUT`: (connect, read) seconds for every Kubernetes API call (`kube.timeouts`): a hung
  call fails as Transient (503, retried) long before Serving's `timeoutSeconds` (60) cuts the
  request.
"""

from __future__ import annotations

import contextlib
import functools
import socket
import time
from typing import Final, Protocol

from werkzeug.exceptions import ClientDisconnected

from dhcpless.errors import InvalidInput
from dhcpless.serving import watchdog

MAX_EVENT_BYTES: Final = 3 * 1024 * 1024
BODY_READ_TIMEOUT: Final = 10.0
HEAD_READ_TIMEOUT: Final = 2.0
HEALTH_THREADS: Final = 2
API_TIMEOUT: Final = (5.0, 20.0)
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
