"""The chaos demo in CI: 30 hosts under every fault at once, judged by the independent observer.

Every demo host must end `available`, every violation counter 0, and every fault kind must have
been injected at least once (so a green run is not a run where nothing went wrong). That the
observer's counters can fail is shown in `test_observer`.
"""

from __future__ import annotations

import json

import pytest

from dhcpless_sandbox.demo.chaos import run_chaos_demo
from dhcpless_sandbox.runtime.chaos import ChaosSettings

pytestmark = pytest.mark.e2e

KINDS = {
    "api_409_conflict",
    "api_5xx",
    "event_delayed",
    "event_dropped",
    "event_duplicated",
    "event_reordered",
    "event_source_restarted",
    "function_killed_before_answer",
    "function_killed_on_arrival",
    "ipam_outage",
}
VIOLATIONS = (
    "double_allocations",
    "leaked_objects",
    "foreign_pauses_removed",
    "overwritten_network_data_names",
    "unpaused_without_valid_data",
    "silent_stalls",
    "duplicate_on_wire",
)


def _summary(capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    found: dict[str, object] = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    return found


def test_chaos_30_hosts(capsys: pytest.CaptureFixture[str]) -> None:
    settings = ChaosSettings(seed=7, kill=0.05)  # small run: raise the kill share to see both
    assert run_chaos_demo(30, 7, True, settings=settings) == 0
    summary = _summary(capsys)
    assert (summary["available"], summary["stranded"]) == (30, 0)
    assert {kind: summary[kind] for kind in VIOLATIONS} == dict.fromkeys(VIOLATIONS, 0)
    injected = summary["injected"]
    assert isinstance(injected, dict)
    assert {kind for kind, n in injected.items() if n > 0} == KINDS
    assert summary["deleted_hosts"] == 15
