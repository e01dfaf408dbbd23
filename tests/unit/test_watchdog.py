"""The edge's body deadline runs on one watchdog thread, not one thread per request (issue 14).

N slow bodies read at once cost the N reading threads and at most one more: before, each
request started its own `threading.Timer`. The deadline still ends every pending read (400,
`BodyTooSlow`), and a cancelled alarm never fires.
"""

from __future__ import annotations

import functools
import socket
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest

from dhcpless.serving import body, watchdog
from tests.support.waits import eventually, seconds

SLOW = 16
"""Slow bodies in flight at once."""


@pytest.fixture
def pairs() -> Iterator[list[tuple[socket.socket, socket.socket]]]:
    made = [socket.socketpair() for _ in range(SLOW)]
    yield made
    for a, b in made:
        a.close()
        b.close()


def _read_slow(server: socket.socket, started: threading.Barrier, timeout: float) -> str:
    """One request whose sender declared 100 bytes and sends none."""
    started.wait()
    with server.makefile("rb") as stream:
        try:
            body.read_body(stream, 100, server, timeout=timeout)
        except body.BodyRefused as refused:
            return type(refused).__name__
    return "read"


def test_n_slow_bodies_cost_no_thread_per_request(
    pairs: list[tuple[socket.socket, socket.socket]],
) -> None:
    before = threading.active_count()
    started = threading.Barrier(SLOW + 1)
    with ThreadPoolExecutor(SLOW) as pool:
        results = [pool.submit(_read_slow, s, started, seconds(30)) for s, _ in pairs]
        started.wait()
        eventually(lambda: watchdog.SHARED.pending() >= SLOW, seconds(10), "alarms armed")
        extra = threading.active_count() - before - SLOW
        for _, sender in pairs:
            sender.close()  # the senders give up: every read ends short (400), alarms cancelled
        outcomes = [r.result(timeout=seconds(30)) for r in results]
    assert extra <= 1, f"{extra} threads besides the {SLOW} readers"
    assert outcomes == ["BodyTooSlow"] * SLOW


def test_the_deadline_still_ends_a_pending_read(
    pairs: list[tuple[socket.socket, socket.socket]],
) -> None:
    """The watchdog shuts the read side at the deadline: the read ends, 400 (not retried)."""
    started = threading.Barrier(1)
    assert _read_slow(pairs[0][0], started, 0.2) == "BodyTooSlow"


@pytest.mark.parametrize(
    "cancel",
    [pytest.param(True, id="cancelled-never-fires"), pytest.param(False, id="armed-fires")],
)
def test_an_alarm_fires_unless_cancelled(cancel: bool) -> None:
    dog, fired, sentinel = watchdog.Watchdog("test-watchdog"), threading.Event(), threading.Event()
    alarm = dog.arm(0.05, fired.set)
    if cancel:
        alarm.cancel()
    dog.arm(0.1, sentinel.set)  # fires after the first would have
    assert sentinel.wait(seconds(10))
    assert fired.is_set() is not cancel


def test_alarms_fire_in_deadline_order() -> None:
    dog, order, done = watchdog.Watchdog("test-watchdog"), list[int](), threading.Event()
    deadlines = {  # as armed: on a loaded machine the arming itself may come late
        mark: dog.arm(delay, functools.partial(order.append, mark)).deadline
        for delay, mark in ((0.15, 3), (0.05, 1), (0.1, 2))
    }
    dog.arm(0.2, done.set)
    assert done.wait(seconds(10))
    assert order == sorted(deadlines, key=deadlines.__getitem__) and len(order) == 3


class _CountingCondition(threading.Condition):
    """A Condition that counts `notify` calls: each is a wake-up of the watchdog thread."""

    notified = 0

    def notify(self, n: int = 1) -> None:
        self.notified += 1
        super().notify(n)


@pytest.mark.parametrize(
    ("delays", "wakes"),
    [
        pytest.param((10.0, 10.0, 10.0), 1, id="same-timeout-wakes-once"),
        pytest.param((10.0, 5.0, 1.0), 3, id="each-earlier-alarm-wakes"),
        pytest.param((1.0, 5.0, 10.0), 1, id="later-alarms-do-not-wake"),
    ],
)
def test_arming_wakes_the_thread_only_for_an_earlier_deadline(
    delays: tuple[float, ...], wakes: int
) -> None:
    """Every request arms the same timeout: one wake-up for the first, none for the rest
    (a wake-up per request was a GIL handoff per request, issue 15)."""
    dog = watchdog.Watchdog("test-watchdog")
    counting = _CountingCondition()
    dog._wake = counting
    alarms = [dog.arm(delay, lambda: None) for delay in delays]
    for alarm in alarms:
        alarm.cancel()
    assert counting.notified == wakes


def test_quick_requests_wake_the_thread_once() -> None:
    """Each request's alarm is cancelled a moment after it was armed: the cancelled ones stay
    until a deadline wakes the thread, so the next arm finds an earlier alarm and wakes nobody."""
    dog = watchdog.Watchdog("test-watchdog")
    counting = _CountingCondition()
    dog._wake = counting
    for _ in range(50):
        dog.arm(10.0, lambda: None).cancel()
    assert counting.notified == 1
    assert dog.pending() == 0
