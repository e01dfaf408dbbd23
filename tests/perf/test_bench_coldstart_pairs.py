"""`bench_coldstart.measure` pairs each function's start with a floor app start next to it, the
order alternating, and reports the median of the pairs' ratios: a load that drifts between two
starts moves both halves of a pair, so the ratio no longer swings with it."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import count

import pytest
import urllib3
from cloudevents.core.base import BaseCloudEvent

from dhcpless_sandbox.bench import coldstart as bench_coldstart
from dhcpless_sandbox.bench.coldstart import BARE, FLOOR, measure
from dhcpless_sandbox.runtime.processes import ProcessSpec
from dhcpless_sandbox.runtime.wiring import ping_event

SPECS = {"one": ProcessSpec("one:app()"), "two": ProcessSpec("two:app()")}
COST = {"bare:app()": 1.0, "floor:app()": 2.0, "one:app()": 2.2, "two:app()": 3.0}
"""Each app's cold start on an idle machine; the fake machine's load adds to it."""


@pytest.fixture
def started(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The fake `cold_start`: a load that grows 5 % a start, so starts two or more apart (a ratio
    of medians) are off by 10 % and more, and adjacent ones (a pair) by 5 %."""
    order: list[str] = []
    load: Iterator[int] = count()
    monkeypatch.setattr(bench_coldstart, "BARE_APP", "bare:app()")
    monkeypatch.setattr(bench_coldstart, "FLOOR_APP", "floor:app()")

    def fake(
        spec: ProcessSpec, event: BaseCloudEvent, http: urllib3.PoolManager
    ) -> tuple[float, float]:
        order.append(spec.app)
        return COST[spec.app] * 1.05 ** next(load), 50.0

    monkeypatch.setattr(bench_coldstart, "cold_start", fake)
    return order


def test_each_function_start_is_next_to_a_floor_start_in_alternating_order(
    started: list[str],
) -> None:
    measure(SPECS, lambda _name: ping_event(), repeats=2, floor_env={})
    assert started == [
        "bare:app()", "floor:app()", "one:app()", "two:app()", "floor:app()",
        "bare:app()", "one:app()", "floor:app()", "floor:app()", "two:app()",
    ]  # fmt: skip


@pytest.mark.parametrize("repeats", [pytest.param(1, id="one"), pytest.param(3, id="three")])
def test_the_ratio_is_the_pairs_not_the_medians(started: list[str], repeats: int) -> None:
    result = measure(SPECS, lambda _name: ping_event(), repeats=repeats, floor_env={})
    for name in SPECS:
        idle_ratio = COST[SPECS[name].app] / COST["floor:app()"]
        assert result.ratio_to_floor[name] == pytest.approx(idle_ratio, rel=0.06), name
    assert set(result.seconds) == {BARE, FLOOR, *SPECS}
    assert result.memory[FLOOR] == 50.0


def test_no_repeats_starts_nothing(started: list[str]) -> None:
    """`repeats=0` (a run that needs only the batch's counts) measures nothing."""
    result = measure(SPECS, lambda _name: ping_event(), repeats=0, floor_env={})
    assert (started, result.seconds, result.ratio_to_floor) == ([], {}, {})


def test_unpaired_starts_one_floor_a_round_for_every_ratio(started: list[str]) -> None:
    """`paired=False` (the suite's cheaper run): one floor start a round, each function's ratio
    against it; the same keys as a paired run."""
    result = measure(SPECS, lambda _name: ping_event(), repeats=2, floor_env={}, paired=False)
    assert started == [
        "bare:app()", "floor:app()", "one:app()", "two:app()",
        "bare:app()", "floor:app()", "one:app()", "two:app()",
    ]  # fmt: skip
    for name, starts_after_the_floor in (("one", 1), ("two", 2)):
        idle_ratio = COST[SPECS[name].app] / COST["floor:app()"]
        expected = idle_ratio * 1.05**starts_after_the_floor  # the load grew meanwhile
        assert result.ratio_to_floor[name] == pytest.approx(expected, abs=0.005), name  # 2 places
    assert set(result.seconds) == {BARE, FLOOR, *SPECS}
