"""How one resync tick runs (`functions.resync.ticks`): a bounded pool, and no two ticks at once.

Covers: every due host is reconciled exactly once, never more than `workers` at a time, and
`workers` really run at once; a ping that arrives while a tick runs lists nothing and changes
nothing, and the next ping after it runs a tick again; `DHCPLESS_RESYNC_WORKERS` is read and
bounded.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from pydantic import ValidationError

from dhcpless import keys
from dhcpless_sandbox.runtime.wiring import ping_event
from functions.resync import app, cursor
from functions.resync.settings import (
    DEFAULT_BUDGET_SECONDS,
    DEFAULT_WORKERS,
    MAX_WORKERS,
    ResyncSettings,
)
from functions.resync.ticks import OneAtATime, run_bounded, run_until
from tests.support.waits import seconds


@pytest.mark.parametrize(
    ("workers", "items"),
    [
        pytest.param(1, 5, id="one-worker-in-the-caller"),
        pytest.param(3, 9, id="three-workers"),
        pytest.param(4, 2, id="fewer-items-than-workers"),
    ],
)
def test_every_item_once_at_most_workers_at_once(workers: int, items: int) -> None:
    lock, running, peak, done = threading.Lock(), [0], [0], Counter[int]()
    together = threading.Barrier(min(workers, items))

    def work(item: int) -> None:
        with lock:
            running[0] += 1
            peak[0] = max(peak[0], running[0])
        if item < min(workers, items):  # the first wave must be in flight together
            together.wait(seconds(5))
        with lock:
            running[0] -= 1
            done[item] += 1

    run_bounded(work, list(range(items)), workers)
    assert done == Counter(range(items))
    assert peak[0] == min(workers, items)


class _NoList:
    """A Kube that counts the tick's LISTs of hosts (and has no cursor stored)."""

    def __init__(self) -> None:
        self.listed = 0

    def find(self, res: Any, namespace: str, name: str) -> None:
        return None

    def list_pages(self, res: Any, namespace: str, page: int) -> Iterator[list[Any]]:
        self.listed += 1
        yield []


SETTINGS = ResyncSettings(namespace="demo", record_events=False)


def test_a_ping_during_a_tick_lists_nothing_and_the_next_one_runs() -> None:
    kube, gate = _NoList(), OneAtATime()
    assert gate.enter()  # a tick is running
    app.handle(ping_event(), kube, SETTINGS, SETTINGS, gate=gate)  # type: ignore[arg-type]
    assert kube.listed == 0
    gate.leave()
    app.handle(ping_event(), kube, SETTINGS, SETTINGS, gate=gate)  # type: ignore[arg-type]
    assert kube.listed == 1
    assert gate.enter()  # the tick left the gate open


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        pytest.param(None, DEFAULT_WORKERS, id="unset"),
        pytest.param("1", 1, id="serial"),
        pytest.param(str(MAX_WORKERS), MAX_WORKERS, id="at-the-bound"),
    ],
)
def test_workers_from_the_environment(value: str | None, expected: int) -> None:
    env = {keys.NAMESPACE_ENV: "demo"} | ({keys.RESYNC_WORKERS_ENV: value} if value else {})
    assert ResyncSettings.from_environment(env).workers == expected


@pytest.mark.parametrize(
    "value",
    [
        pytest.param("0", id="zero"),
        pytest.param(str(MAX_WORKERS + 1), id="above-the-bound"),
        pytest.param("many", id="not-a-number"),
    ],
)
def test_bad_workers_stop_the_app_at_start(value: str) -> None:
    with pytest.raises(ValidationError):
        ResyncSettings.from_environment({keys.NAMESPACE_ENV: "d", keys.RESYNC_WORKERS_ENV: value})


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        pytest.param(None, DEFAULT_BUDGET_SECONDS, id="unset"),
        pytest.param("12.5", 12.5, id="set"),
    ],
)
def test_budget_from_the_environment(value: str | None, expected: float) -> None:
    env = {keys.NAMESPACE_ENV: "demo"} | ({keys.RESYNC_BUDGET_ENV: value} if value else {})
    assert ResyncSettings.from_environment(env).budget_seconds == expected


@pytest.mark.parametrize(
    ("spent_after", "expected_skipped"),
    [
        pytest.param(99, [], id="never-spent"),
        pytest.param(2, [2, 3, 4], id="spent-after-two"),
        pytest.param(0, [0, 1, 2, 3, 4], id="spent-before-any"),
    ],
)
def test_run_until_starts_nothing_once_spent(spent_after: int, expected_skipped: list[int]) -> None:
    done: list[int] = []
    skipped = run_until(done.append, list(range(5)), 1, lambda: len(done) >= spent_after)
    assert (done, skipped) == ([i for i in range(5) if i not in expected_skipped], expected_skipped)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("metal3/host-0", ("metal3", "host-0"), id="a-host"),
        pytest.param("", None, id="cleared"),
        pytest.param("host-0", None, id="no-namespace"),
        pytest.param("a/b/c", None, id="too-many-parts"),
        pytest.param("metal3/", None, id="no-name"),
    ],
)
def test_cursor_text(text: str, expected: tuple[str, str] | None) -> None:
    assert cursor.parse(text) == expected
