"""Request limits of the served image (issue 14, finding 1), through real gunicorn with
deploy/gunicorn_conf.py, the way the Containerfile runs it.

* Eight connections that send part of a request head and stall ("header slowloris", issue 24,
  finding 7: more than every thread gunicorn has) do not keep the readiness probe or a valid
  event waiting more than `ANSWER_WITHIN`: the head deadline (`serving.headguard`) frees the
  threads, and those connections are closed unanswered.
* Four connections that send headers and then stall (as many as `containerConcurrency`) do not
  keep the health probes waiting: gunicorn keeps threads for them (`limits.HEALTH_THREADS`).
* Those stalled bodies are answered 400 (not retried by Knative) once `BODY_READ_TIMEOUT` is
  over, and their connections closed: a slow sender holds a thread for a bounded time.
* A body declared above `MAX_EVENT_BYTES` is answered 413 before it is read; a chunked one
  (no length) is cut off at the limit. The worker's memory stays far below the 100 MiB sent.
* A head above gunicorn's limits (a header field, the number of fields, the request line) is
  answered as our error handler answers a refused body (a status and one text/plain line,
  then the connection closed), not with gunicorn's HTML page (issue 24, finding 8).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest
from cloudevents.core.bindings.http import to_binary_event

from dhcpless import keys, limits
from dhcpless.keys import EventType
from dhcpless.serving.body import CHUNK
from tests.support import objects, scenario
from tests.support.waits import eventually

from .test_image import CONF, _free_port, _kubeconfig

START_TIMEOUT = 30.0
"""Quiet-machine deadline for gunicorn to answer (scaled by `seconds()`)."""
SLOW_CLIENTS = 4
SLOW_HEADS = 8
ANSWER_WITHIN = 5.0
"""Issue 24: a probe and an event under slow heads (`limits.HEAD_READ_TIMEOUT`: 2 s)."""
PROBE = b"GET /health/readiness HTTP/1.1\r\nHost: x\r\n\r\n"
HEADERS = "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/cloudevents+json\r\n"


@dataclass(frozen=True)
class Served:
    port: int
    log: Path
    pid: int


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """host-registration served by gunicorn; its API server is never reached by these tests."""
    tmp, port = tmp_path_factory.mktemp("edge"), _free_port()
    env = {**os.environ, "FUNCTION": "host-registration", "PORT": str(port)}
    env["KUBECONFIG"] = str(_kubeconfig(tmp, f"http://127.0.0.1:{_free_port()}"))
    log = (tmp / "gunicorn.log").open("w")
    command = [sys.executable, "-m", "gunicorn", "--config", str(CONF)]
    process = subprocess.Popen(command, env=env, cwd=tmp, stdout=log, stderr=subprocess.STDOUT)
    try:
        _wait_ready(port, process, tmp / "gunicorn.log")
        yield Served(port, tmp / "gunicorn.log", process.pid)
    finally:
        process.terminate()
        process.wait(timeout=30)
        log.close()


def _wait_ready(port: int, process: subprocess.Popen[bytes], log: Path) -> None:
    def ready() -> bool:
        assert process.poll() is None, log.read_text()
        try:
            return bool(
                _status(_exchange(port, b"GET /health/readiness HTTP/1.1\r\nHost: x\r\n\r\n"))
            )
        except OSError:  # not listening yet: poll again
            return False

    eventually(ready, START_TIMEOUT, "gunicorn answering its readiness probe")


def _exchange(port: int, request: bytes, timeout: float = 30.0) -> bytes:
    """Send `request` on a new connection and read the answer's first bytes."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as conn:
        conn.sendall(request)
        return conn.recv(4096)


def _until_closed(conn: socket.socket) -> bytes:
    """Everything the server sends before it closes the connection."""
    answer = b""
    while chunk := conn.recv(4096):
        answer += chunk
    return answer


def _status(answer: bytes) -> int:
    return int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/") else 0


def _stalled(port: int) -> socket.socket:
    """A connection that promised a body and sent one byte of it."""
    conn = socket.create_connection(("127.0.0.1", port), timeout=limits.BODY_READ_TIMEOUT + 60)
    conn.sendall(f"{HEADERS}Content-Length: 1000\r\n\r\n{{".encode())
    return conn


def test_health_answers_while_every_work_thread_reads_a_stalled_body(served: Served) -> None:
    port = served.port
    stalled = [_stalled(port) for _ in range(SLOW_CLIENTS)]
    try:
        with ThreadPoolExecutor(2) as pool:
            probes = [
                pool.submit(_exchange, port, f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
                for path in ("/health/liveness", "/health/readiness")
            ]
            answers = [probe.result(timeout=limits.BODY_READ_TIMEOUT / 2) for probe in probes]
        assert [_status(a) for a in answers] == [200, 200]
        slow_answers = [_until_closed(conn) for conn in stalled]
        assert [_status(a) for a in slow_answers] == [400] * SLOW_CLIENTS
        tails = [answer[-40:] for answer in slow_answers]
        assert all(b"did not arrive in time" in tail for tail in tails), tails
    finally:
        for conn in stalled:
            conn.close()


def _event() -> bytes:
    """A valid BareMetalHost event host-registration answers from the event alone (204: a
    pause that is not ours), as raw HTTP/1.1."""
    event = scenario.cloudevent(EventType.RESOURCE_UPDATE, objects.host(pause=keys.CAPM3_PAUSE))
    message = to_binary_event(event)
    head = "".join(f"{k}: {v}\r\n" for k, v in message.headers.items())
    length = f"Content-Length: {len(message.body)}\r\n"
    return f"POST / HTTP/1.1\r\nHost: x\r\n{head}{length}\r\n".encode() + message.body


def test_slow_heads_hold_no_thread_past_their_deadline(served: Served) -> None:
    port = served.port
    slow = [socket.create_connection(("127.0.0.1", port), timeout=60) for _ in range(SLOW_HEADS)]
    for conn in slow:
        conn.sendall(b"POST / HTTP/1.1\r\nHost: x\r\nX-Slow: ")  # never the blank line
    try:
        started = time.monotonic()
        with ThreadPoolExecutor(2) as pool:
            asked = [pool.submit(_exchange, port, request) for request in (PROBE, _event())]
            answers = [a.result(timeout=60) for a in asked]
        took = time.monotonic() - started
        assert [_status(a) for a in answers] == [200, 204]
        print(f"probe and event answered in {took:.2f} s under {SLOW_HEADS} slow heads")
        assert took < ANSWER_WITHIN, f"answered after {took:.2f} s"
        assert [_until_closed(conn) for conn in slow] == [b""] * SLOW_HEADS  # cut, unanswered
    finally:
        for conn in slow:
            conn.close()


def test_a_body_declared_too_big_is_refused_unread(served: Served) -> None:
    declared = 100 * 1024 * 1024
    with socket.create_connection(("127.0.0.1", served.port), timeout=60) as conn:
        conn.sendall(f"{HEADERS}Content-Length: {declared}\r\n\r\n{{".encode())
        answer = _until_closed(conn)  # answered, then closed: nothing more is read
    assert _status(answer) == 413 and answer.endswith(
        f"above the limit of {limits.MAX_EVENT_BYTES}\n".encode()
    )


def test_a_chunked_body_is_cut_off_at_the_limit(served: Served) -> None:
    """The server stops reading past the limit and closes; the answer itself may be lost to
    the reset of a connection closed with unread data, so the log says what it answered."""
    chunk, sent, total = b"x" * CHUNK, 0, 100 * 1024 * 1024
    with socket.create_connection(("127.0.0.1", served.port), timeout=60) as conn:
        conn.sendall(f"{HEADERS}Transfer-Encoding: chunked\r\n\r\n".encode())
        with pytest.raises(OSError):  # the server stops reading and closes: the send breaks
            while sent < total:
                conn.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                sent += len(chunk)
    assert sent < total / 4, f"the server read {sent} bytes of a chunked body"
    assert _wait_for(served.log, "rejected (413): event is above the limit")
    peak = _worker_peak_kib(served.pid)
    print(f"worker peak RSS after a 100 MiB chunked body: {peak // 1024} MiB")
    assert peak < total // 1024, "the worker held the body in memory"


def _worker_peak_kib(master: int) -> int:
    """VmHWM of gunicorn's worker (the master's child), from /proc (Linux)."""
    children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    assert children, "gunicorn has no worker"
    status = Path(f"/proc/{children[0]}/status").read_text()
    line = next(line for line in status.splitlines() if line.startswith("VmHWM:"))
    return int(line.split()[1])


def _wait_for(log: Path, text: str) -> bool:
    """Poll the file the server appends to until it has `text`."""
    return eventually(lambda: text in log.read_text(), 15, f"{text!r} in the server log")


OVERSIZED = [
    pytest.param(b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 9000 + b"\r\n\r\n", 431,
                 b"request headers are above the limit", id="header-field"),
    pytest.param(b"GET / HTTP/1.1\r\n" + b"".join(b"X-%d: y\r\n" % i for i in range(120))
                 + b"\r\n", 431, b"request headers are above the limit", id="too-many-fields"),
    pytest.param(b"GET /" + b"a" * 5000 + b" HTTP/1.1\r\nHost: x\r\n\r\n", 414,
                 b"request line is above the limit", id="request-line"),
]  # fmt: skip


@pytest.mark.parametrize(("request_bytes", "status", "why"), OVERSIZED)
def test_an_oversized_head_gets_our_answer_not_an_html_page(
    served: Served, request_bytes: bytes, status: int, why: bytes
) -> None:
    with socket.create_connection(("127.0.0.1", served.port), timeout=60) as conn:
        conn.sendall(request_bytes)
        answer = _until_closed(conn)  # answered, then closed
    head, _, body = answer.partition(b"\r\n\r\n")
    assert _status(answer) == status, answer[:200]
    assert b"Content-Type: text/plain; charset=utf-8" in head.split(b"\r\n")
    assert b"<html>" not in answer and body.startswith(why) and body.endswith(b"\n")
    assert body.count(b"\n") == 1  # one line, as every refusal of ours
    assert _status(_exchange(served.port, PROBE)) == 200  # the worker serves on
