"""`bench_settle`: the wait after the batch ends at once, naming the hosts, when some never will
be available (BMO reports them stuck), and at its deadline names the hosts still waiting."""

from __future__ import annotations

import time
from collections.abc import Mapping

import pytest

from dhcpless_sandbox.bench import settle as bench_settle
from dhcpless_sandbox.bench.settle import Probes, Unsettled, hopeless, settle

AVAILABLE = bench_settle.AVAILABLE


@pytest.mark.parametrize(
    ("states", "stuck", "expected"),
    [
        pytest.param({"a": AVAILABLE}, {}, {}, id="all-available"),
        pytest.param({"a": AVAILABLE, "b": "x"}, {"b": "no NIC"}, {"b": "no NIC"}, id="stuck"),
        pytest.param({"a": "inspecting", "b": "x"}, {"b": "no NIC"}, {}, id="one-moving"),
        pytest.param({"a": None}, {}, {}, id="not-yet-seen-by-bmo"),
    ],
)  # fmt: skip
def test_hopeless_only_when_every_waiting_host_is_stuck(
    states: Mapping[str, str | None], stuck: Mapping[str, str], expected: dict[str, str]
) -> None:
    assert hopeless(states, stuck) == expected


def _probes(states: Mapping[str, str | None], stuck: Mapping[str, str]) -> Probes:
    return Probes(lambda: states, lambda: stuck, lambda _seconds: True)


def test_stuck_hosts_fail_fast_and_are_named() -> None:
    states = {"host-000": AVAILABLE, "host-001": "inspecting", "host-002": "inspecting"}
    stuck = {"host-001": "glean: no NIC", "host-002": "glean: no NIC"}
    began = time.monotonic()
    with pytest.raises(Unsettled, match=r"2 host\(s\) will never be available") as caught:
        settle(_probes(states, stuck), hosts=3, timeout=600.0)
    assert "host-001 (glean: no NIC)" in str(caught.value)
    assert "host-002" in str(caught.value) and "host-000" not in str(caught.value)
    assert time.monotonic() - began < 60.0, "failed fast, not at the 600 s deadline"


def test_the_deadline_names_the_hosts_still_waiting() -> None:
    states = {"host-000": AVAILABLE, "host-001": "provisioning"}
    with pytest.raises(Unsettled, match=r"1 host\(s\) not available") as caught:
        settle(_probes(states, {}), hosts=2, timeout=0.0)
    assert "host-001 (provisioning)" in str(caught.value)


def test_returns_once_every_host_is_available_and_idle() -> None:
    calls: list[float] = []

    def idle(seconds: float) -> bool:
        calls.append(seconds)
        return True

    probes = Probes(lambda: {"host-000": AVAILABLE}, dict, idle)
    settle(probes, hosts=1, timeout=60.0)
    assert len(calls) == 2, "idle checked twice in a row before returning"


def test_quiet_waits_until_the_deliveries_stop_moving() -> None:
    """Before the batch: the setup's events handled (the count unchanged over a poll, nothing
    in flight), so none of their work is counted as the batch's."""
    counts = iter([1, 2, 3, 3, 3, 3])
    assert bench_settle.quiet(lambda: next(counts), lambda _s: True, timeout=30.0)


def test_quiet_gives_up_at_its_deadline_while_deliveries_are_in_flight() -> None:
    assert not bench_settle.quiet(lambda: 0, lambda _s: False, timeout=0.2)
