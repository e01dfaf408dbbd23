"""`run_bench` at a small size: every report key is there and the per-host counts hold.

Counts, not times: the ratios the issue asks for at 1,000 hosts (README "Performance") are
checked here on 30 hosts, where they are the same per host. Times are only checked to exist.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from dhcpless_sandbox.bench import run as bench
from dhcpless_sandbox.bench.chaos import measure_chaos
from dhcpless_sandbox.bench.report import KEYS, OUTSIDE_KEYS
from dhcpless_sandbox.bench.run import measure, run_bench
from dhcpless_sandbox.eventing.delivery import BrokerMode

pytestmark = pytest.mark.e2e

HOSTS, POOLS = 30, 2


@pytest.fixture(scope="module")
def report() -> dict[str, Any]:
    """One floor start shared by the functions' cold-start ratios (`paired=False`): they are
    only bounded here, and the pairs (`test_bench_coldstart_pairs`) cost three starts more."""
    return measure(HOSTS, POOLS, paired=False)


@pytest.fixture(scope="module")
def async_report() -> dict[str, Any]:
    """The batch's counts under the other broker; no cold starts (`repeats=0`): they are
    process properties, measured once, in `report`."""
    return measure(HOSTS, POOLS, repeats=0, mode=BrokerMode.ASYNC)


READS_BOUND = 2 * POOLS + 4
"""Reads per host, under either broker: issue 15's bound. The functions' watch caches serve the
templates and IPPools (one LIST and WATCH per kind and process), a fresh host's claims are
created without a LIST, and a claim version already decided on costs nothing (`chain.hints`)."""


def test_every_key_is_reported(report: dict[str, Any], async_report: dict[str, Any]) -> None:
    assert sorted(report) == sorted(KEYS)
    assert sorted(async_report) == sorted(KEYS)


def test_work_outside_the_chain_is_counted_apart(
    report: dict[str, Any], async_report: dict[str, Any]
) -> None:
    """IPPool events, resync ticks and redeliveries are totals of their own (`bench_deliveries`),
    not in the per-host counts; resync's requests are not among the chain's."""
    for result in (report, async_report):
        assert all(isinstance(result[k], int) and result[k] >= 0 for k in OUTSIDE_KEYS)
        assert not any(key.startswith("resync ") for key in result["batch_requests"])


@pytest.mark.parametrize(
    ("key", "bound"),
    [
        pytest.param("events_per_host", 4, id="events"),
        # issue 12: the last address takes the full pipeline (the template that applies now,
        # every claim and the Secret checked to be this host's): a few reads more per host;
        # released hosts are no longer labelled done, so BMO's status updates reach
        # host-registration (answered without a read) until CAPM3 borrows the claims
        pytest.param("reads_per_host", READS_BOUND, id="reads"),
        pytest.param("invocations_per_host", 2 * POOLS + 8, id="invocations"),
    ],
)
def test_per_host_counts_are_bounded(report: dict[str, Any], key: str, bound: float) -> None:
    assert report[key] <= bound, f"{key} = {report[key]} > {bound}"


def test_writes_are_the_floor(report: dict[str, Any]) -> None:
    assert report["unpaused"] == HOSTS
    assert report["min_writes_per_host"] == POOLS + 2
    assert report["writes_per_host"] == report["min_writes_per_host"]


def test_at_rest_nothing_is_written(report: dict[str, Any]) -> None:
    """Released hosts are labelled done (`chain.decide.quiet`), so no status rewrite at rest
    reaches a function (`bench_rest` waits until all went quiet): no invocation, no write."""
    assert report["idle"]["invocations"] == 0
    assert report["idle"]["writes"] == 0


def test_at_rest_no_function_reads(report: dict[str, Any]) -> None:
    """BMO's status updates of released hosts reach no function (they are labelled done), so
    nothing is read at rest either."""
    assert report["idle"]["reads"] == 0


def test_cold_start_and_memory(report: dict[str, Any]) -> None:
    """Memory is a process property (stable); cold start ratios are machine-noisy and only
    bounded loosely here: README "Performance" reports the measured ratios."""
    assert all(mb < 80 for mb in report["rss_mb"].values()), report["rss_mb"]
    assert all(0 < r < 20 for r in report["cold_start_ratio"].values())


def test_times_and_processes_are_measured(report: dict[str, Any]) -> None:
    assert report["floor_seconds"] > 0 and report["seconds"] > 0
    assert report["ratio_to_floor"] == pytest.approx(
        report["seconds"] / report["floor_seconds"], 0.01
    )
    assert report["bare_cold_start_seconds"] > 0
    assert set(report["cold_start_seconds"]) == set(report["rss_mb"])
    assert all(math.isfinite(t) for t in report["to_unpause_seconds"])


def test_cli_entry_prints_json_and_a_png(
    report: dict[str, Any],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The entry prints the run's report as JSON and plots it; the run itself is the module's
    (`report`), measured once: a second bench run here would only repeat it."""
    asked: list[tuple[int, int]] = []

    def measured(hosts: int, pools: int, **_: object) -> dict[str, Any]:
        asked.append((hosts, pools))
        return report

    monkeypatch.setattr(bench, "measure", measured)
    png = tmp_path / "plot.png"
    assert run_bench(HOSTS, POOLS, True, png) == 0
    printed = json.loads(capsys.readouterr().out)
    assert asked == [(HOSTS, POOLS)]
    assert printed["hosts"] == HOSTS and printed["unpaused"] == HOSTS
    assert png.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


@pytest.mark.parametrize(
    "key",
    [
        pytest.param("writes_per_host", id="writes"),
        pytest.param("lifecycle_writes_per_host", id="lifecycle-writes"),
    ],
)
def test_both_brokers_cost_the_same_writes(
    report: dict[str, Any], async_report: dict[str, Any], key: str
) -> None:
    """Delivery order changes, the work does not: the same writes under either broker."""
    assert (report["broker_mode"], async_report["broker_mode"]) == ("sync", "async")
    assert report[key] == async_report[key]
    assert async_report["idle"]["writes"] == 0


def test_both_brokers_stay_within_the_read_and_event_bounds(
    report: dict[str, Any], async_report: dict[str, Any]
) -> None:
    """Reads (pool events reach ipclaim-fulfilment at different times) and core/v1 Events (they
    vary a little between runs at 2 pools, under either broker) may differ: both in bounds."""
    for result in (report, async_report):
        assert result["reads_per_host"] <= READS_BOUND, result["broker_mode"]
        assert result["events_per_host"] <= 4, result["broker_mode"]
        assert result["reads_floor_per_host"] == 2 * POOLS + 4


def test_function_floor_and_cpu_are_measured(report: dict[str, Any]) -> None:
    """Seconds per host of the handlers, of the floor and of CPU are positive and finite; the
    ratio is reported, not asserted (README "Performance")."""
    for key in ("function_seconds_per_host", "floor_seconds_per_host", "cpu_seconds_per_host"):
        assert 0 < report[key] < 60, key
    assert report["function_to_floor_ratio"] == pytest.approx(
        report["function_seconds_per_host"] / report["floor_seconds_per_host"], rel=0.05
    )
    assert set(report["cold_start_ratio_to_floor"]) == set(report["cold_start_seconds"])
    assert report["floor_cold_start_seconds"] > 0


def test_the_loaded_floor_is_sampled_during_the_batch_and_counted_like_the_functions(
    report: dict[str, Any],
) -> None:
    """The floor's sampler (its own process and identity) made exactly the floor's requests per
    sampled host, counted by the same audit as the functions' (`bench_floor_live`); the idle
    floor after the batch is reported beside it."""
    assert report["floor_samples"] >= 3
    assert report["floor_requests_per_host"] == {"reads": POOLS + 2, "writes": POOLS + 2}
    assert report["floor_idle_seconds_per_host"] > 0
    assert report["floor_seconds_per_request"] == pytest.approx(
        report["floor_seconds_per_host"] / (2 * POOLS + 4), rel=0.05
    )


def test_chaos_run_never_unpauses_a_broken_host() -> None:
    """Two broken hosts among ten (indices 4 and 9: a full pool and no template, one of each)."""
    result = measure_chaos(10, 5, BrokerMode.SYNC)
    assert (result["healthy_hosts"], result["broken_hosts"]) == (8, 2)
    assert result["broken_unpaused"] == 0
    assert result["baseline_unpaused"] == result["chaos_healthy_unpaused"] == 8
    assert result["healthy_p95_ratio"] is not None and result["healthy_p95_ratio"] > 0
