"""HTTP requests whose head and body leave in one write, for the clients we build.

Exists because urllib3 2.x sends a request in two writes: `HTTPConnection.request` calls
`endheaders()`, which writes the head, then writes each body chunk with `send` (urllib3
`connection.py`, `HTTPConnection.request`). The standard library joins them when it is given
the body (CPython `http/client.py`, `HTTPConnection._send_output`: "send in a single send()
call"), urllib3 does not. Between the two writes the sending thread gives up the GIL and has
to win it back while the receiver, which has the head already, waits for the body: a server
that times requests from their head (gunicorn's `%(D)s`) counts that wait as its own, and our
API writes (claims, Secrets, the release patch) wait on the server for it. The bytes on the
wire are the same; only the number of writes changes.

`install` swaps the connection classes of a `urllib3.PoolManager` (pools are made on first
use, so before the first request), for HTTP and HTTPS alike.
"""

from __future__ import annotations

from typing import Any

import urllib3
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool


class OneWrite:
    """Mixin over a urllib3 connection: holds the head of a request with a known, non-empty
    body (bytes or str, as the `kubernetes` client passes JSON) and writes it with the body."""

    _hold_head = False
    _head: bytes | None = None

    def request(self, method: str, url: str, body: Any = None, *args: Any, **kw: Any) -> None:
        self._hold_head = isinstance(body, bytes | str) and len(body) > 0
        self._head = None
        try:
            super().request(method, url, body, *args, **kw)  # type: ignore[misc]
        except BaseException:
            self._take()
            raise
        head = self._take()
        if head is not None:  # no body write came (never for a non-empty body)
            super().send(head)  # type: ignore[misc]

    def _take(self) -> bytes | None:
        """The head still held (None once written), and nothing held from now on."""
        head, self._hold_head, self._head = self._head, False, None
        return head

    def send(self, data: Any) -> None:
        if self._hold_head:  # the first write of the request is its head: keep it
            self._hold_head, self._head = False, bytes(data)
            return
        if self._head is not None:
            data, self._head = self._head + bytes(data), None
        super().send(data)  # type: ignore[misc]


class OneWriteHTTPConnection(OneWrite, HTTPConnection):
    """Plain HTTP (the sandbox, a local proxy)."""


class OneWriteHTTPSConnection(OneWrite, HTTPSConnection):
    """TLS (an API server as deployed)."""


class _HTTPPool(HTTPConnectionPool):
    ConnectionCls = OneWriteHTTPConnection


class _HTTPSPool(HTTPSConnectionPool):
    ConnectionCls = OneWriteHTTPSConnection


def install(pool_manager: urllib3.PoolManager) -> urllib3.PoolManager:
    """Make every pool `pool_manager` creates from now on write each request at once."""
    pool_manager.pool_classes_by_scheme = {"http": _HTTPPool, "https": _HTTPSPool}
    return pool_manager
