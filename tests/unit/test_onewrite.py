"""A request's head and body leave in one write (`kube.transport.onewrite`, issue 15).

urllib3 writes the head, then the body: the receiver, holding the head, waits for the body
while the sender wins the GIL back. With `onewrite` the same bytes go in one `sendall`; the
server still reads the whole request and answers it.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from typing import Any

import pytest
import urllib3
from urllib3.connection import HTTPConnection

from dhcpless.kube.transport import onewrite
from tests.support.waits import seconds

NO_CONTENT = b"HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n"


class Recorder:
    """A socket whose `sendall` calls are recorded (everything else is the socket's)."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock, self.writes = sock, list[bytes]()

    def sendall(self, data: bytes) -> None:
        self.writes.append(bytes(data))
        self.sock.sendall(data)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.sock, name)


def _serve(listener: socket.socket, received: list[bytes]) -> None:
    """Answer each request on each connection with 204, keeping what arrived."""
    while True:
        try:
            conn, _ = listener.accept()
        except OSError:
            return
        with conn:
            received.append(_one_request(conn))
            conn.sendall(NO_CONTENT)


def _one_request(conn: socket.socket) -> bytes:
    data = b""
    while b"\r\n\r\n" not in data:
        data += conn.recv(65536)
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(
        (
            int(line.split(b":")[1])
            for line in head.split(b"\r\n")
            if line.lower().startswith(b"content-length")
        ),
        0,
    )
    while len(body) < length:
        body += conn.recv(65536)
    return head + b"\r\n\r\n" + body


@pytest.fixture
def server() -> Iterator[tuple[int, list[bytes]]]:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    received: list[bytes] = []
    thread = threading.Thread(target=_serve, args=(listener, received), daemon=True)
    thread.start()
    yield listener.getsockname()[1], received
    listener.shutdown(socket.SHUT_RDWR)  # ends the pending accept (close alone does not)
    listener.close()
    thread.join(seconds(10))


def _send(cls: type[HTTPConnection], port: int, body: bytes | str | None) -> list[bytes]:
    conn = cls("127.0.0.1", port, timeout=seconds(10))
    conn.connect()
    recorder = Recorder(conn.sock)
    conn.sock = recorder
    method = "GET" if body is None else "POST"
    conn.request(method, "/", body=body, headers={"Content-Type": "application/json"})
    assert conn.getresponse().status == 204
    conn.close()
    return recorder.writes


@pytest.mark.parametrize(
    ("body", "writes"),
    [
        pytest.param(b'{"kind": "Secret"}', 1, id="bytes-body"),
        pytest.param('{"kind": "Event"}', 1, id="str-body-as-the-kubernetes-client"),
        pytest.param(None, 1, id="no-body"),
        pytest.param(b"", 1, id="empty-body"),
    ],
)
def test_one_write_per_request_same_bytes(
    server: tuple[int, list[bytes]], body: bytes | str | None, writes: int
) -> None:
    port, received = server
    ours = _send(onewrite.OneWriteHTTPConnection, port, body)
    theirs = _send(HTTPConnection, port, body)
    assert len(ours) == writes
    assert b"".join(ours) == b"".join(theirs) == received[0] == received[1]
    assert len(theirs) == (2 if body else 1)  # urllib3 alone: head, then body


def test_install_makes_the_pool_manager_write_once(server: tuple[int, list[bytes]]) -> None:
    port, received = server
    manager = onewrite.install(urllib3.PoolManager(retries=False))
    answer = manager.request("POST", f"http://127.0.0.1:{port}/", body=b'{"a": 1}')
    pool = manager.connection_from_url(f"http://127.0.0.1:{port}/")
    assert answer.status == 204
    assert pool.ConnectionCls is onewrite.OneWriteHTTPConnection
    assert received[0].endswith(b'{"a": 1}')
