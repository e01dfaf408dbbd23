"""Waits that end when a condition holds, with deadlines scaled to how loaded the machine is.

A test states the deadline it would need on a quiet developer laptop; `seconds()` stretches it
by a scale factor so the same suite passes on a loaded 2-core CI runner. Deadlines only bound a
failure: a passing wait returns as soon as its condition holds, so a generous scale costs nothing
when the code is right.

Set `DHCPLESS_TEST_TIME_SCALE` (a positive number) to choose the factor; by default it grows as
the machine has fewer cores, and is never below 2.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from typing import TypeVar

SCALE_ENV = "DHCPLESS_TEST_TIME_SCALE"
MIN_SCALE = 2.0
CORES_FOR_SCALE_ONE = 8
"""On this many cores a quiet-laptop deadline would do; fewer cores stretch it."""

T = TypeVar("T")


def scale() -> float:
    """The factor every deadline is multiplied by: from the environment, else from the cores."""
    given = os.environ.get(SCALE_ENV, "").strip()
    if given:
        factor = float(given)
        if factor <= 0:
            raise ValueError(f"{SCALE_ENV} must be a positive number, got {given!r}")
        return factor
    return max(MIN_SCALE, CORES_FOR_SCALE_ONE / (os.cpu_count() or 1))


def seconds(base: float) -> float:
    """`base` seconds (a quiet-machine deadline) stretched for this machine."""
    return base * scale()


def _pauses(deadline: float) -> Callable[[], bool]:
    """Waits between polls: short at first, then backing off to 0.2 s; False once past deadline."""
    gate, pause = threading.Event(), [0.005]

    def wait() -> bool:
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        gate.wait(min(pause[0], left))
        pause[0] = min(pause[0] * 2, 0.2)
        return True

    return wait


def eventually(check: Callable[[], T | None], timeout: float = 10.0, what: str = "condition") -> T:
    """Poll until `check()` is truthy and return its value; fail with the last value seen.

    `timeout` is the quiet-machine deadline in seconds; it is scaled by `seconds()`.
    """
    limit = seconds(timeout)
    wait = _pauses(time.monotonic() + limit)
    value = check()
    while not value:
        if not wait():
            raise AssertionError(f"{what} not met in {limit:.0f}s; last value: {value!r}")
        value = check()
    return value


def stays(check: Callable[[], object], duration: float, what: str = "condition") -> None:
    """Fail as soon as `check()` turns falsy during `duration` seconds (not scaled: a window
    in which something must NOT happen gets no stronger by being longer)."""
    wait = _pauses(time.monotonic() + duration)
    while True:
        value = check()
        if not value:
            raise AssertionError(f"{what} stopped holding within {duration}s: {value!r}")
        if not wait():
            return


def event_set(event: threading.Event, timeout: float, what: str = "event") -> None:
    """Wait for `event` with a scaled deadline; fail naming what did not happen."""
    limit = seconds(timeout)
    if not event.wait(limit):
        raise AssertionError(f"{what} did not happen in {limit:.0f}s")
