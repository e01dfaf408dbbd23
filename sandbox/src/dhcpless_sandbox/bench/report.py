"""The bench's report: one flat JSON object (the keys scripts and the CI test rely on), a
table for people, and the plot. Exists apart from the runner because the output is a contract.
"""

from __future__ import annotations

import math
import statistics
from pathlib import Path
from typing import Any

from dhcpless_sandbox.bench import legend
from dhcpless_sandbox.bench.coldstart import BARE, FLOOR, REFERENCES
from dhcpless_sandbox.bench.count import Window
from dhcpless_sandbox.eventing.delivery import BrokerMode

OUTSIDE_KEYS = tuple(
    f"{name}_in_batch"
    for name in ("pool_events", "pool_event_reads", "resync_ticks", "resync_requests",
                 "redeliveries", "resync_writes")
)  # fmt: skip
"""Work in the batch no host's chain causes (`bench_deliveries`): totals, kept out of the
per-host counts so those are the chain's own and do not move with timing; but resync's writes
are in `writes_per_host` too (`bench.count`), and `resync_writes_in_batch` says how many."""
KEYS = (
    "broker_mode", "hosts", "pools", "unpaused", "seconds", "hosts_per_second", "p50_seconds",
    "p95_seconds",
    "floor_seconds", "ratio_to_floor", "writes_per_host", "min_writes_per_host",
    "events_per_host", "reads_per_host", "invocations_per_host", "lifecycle_writes_per_host",
    "lifecycle", "cold_start_seconds", "bare_cold_start_seconds", "cold_start_ratio", "rss_mb",
    "idle", "batch_requests", "function_seconds_per_host", "floor_seconds_per_host",
    "function_to_floor_ratio", "floor_idle_seconds_per_host", "floor_samples",
    "floor_requests_per_host", "function_seconds_per_request", "floor_seconds_per_request",
    "cpu_seconds_per_host", "floor_cold_start_seconds",
    "cold_start_ratio_to_floor", "reads_floor_per_host", "idle_requests", "cold_starts_in_batch",
    "to_unpause_seconds", *OUTSIDE_KEYS, "load_average",
)  # fmt: skip


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def build(
    *, mode: BrokerMode, hosts: int, pools: int, seconds: float, floor_seconds: float,
    to_unpause: list[float],
    batch: Window, lifecycle: Window, idle: Window, cold: dict[str, float],
    cold_ratios: dict[str, float],
    rss: dict[str, float], cold_starts_in_batch: dict[str, list[float]],
    handler_seconds: float, cpu_seconds: float, floor_samples: list[float],
    floor_requests: dict[str, float], load: dict[str, list[float]] | None = None,
) -> dict[str, Any]:  # fmt: skip
    """`floor_seconds_per_host` is the loaded floor (the mean of `floor_samples`, taken during
    the batch: `bench_floor_live`); `floor_seconds` the idle floor of every host after it.
    Cold starts not measured (`repeats=0`) leave their keys empty (None, {})."""
    done = [t for t in to_unpause if not math.isnan(t)]
    per, bare, floor_start = batch.per(hosts), cold.get(BARE), cold.get(FLOOR)
    functions = {name: s for name, s in cold.items() if name not in REFERENCES}
    function_per_host = handler_seconds / hosts
    floor_per_host = statistics.fmean(floor_samples) if floor_samples else math.nan
    return {
        "broker_mode": mode.value,
        "hosts": hosts,
        "pools": pools,
        "unpaused": len(done),
        "seconds": round(seconds, 3),
        "hosts_per_second": round(hosts / seconds, 1) if seconds > 0 else 0.0,
        "p50_seconds": round(quantile(done, 0.5), 3) if done else None,
        "p95_seconds": round(quantile(done, 0.95), 3) if done else None,
        "floor_seconds": round(floor_seconds, 3),
        "ratio_to_floor": round(seconds / floor_seconds, 2) if floor_seconds > 0 else None,
        "writes_per_host": per["writes"],
        "min_writes_per_host": pools + 2,
        "events_per_host": per["events"],
        "reads_per_host": per["reads"],
        "invocations_per_host": per["invocations"],
        "lifecycle_writes_per_host": lifecycle.per(hosts)["writes"],
        "lifecycle": lifecycle.per(hosts),
        "cold_start_seconds": functions,
        "bare_cold_start_seconds": bare,
        "cold_start_ratio": {n: round(s / bare, 2) for n, s in functions.items() if bare},
        "rss_mb": rss,
        "idle": {
            "invocations": idle.invocations,
            "reads": idle.reads,
            "writes": idle.writes + idle.events,
            "reads_per_invocation": round(idle.reads / max(idle.invocations, 1), 3),
        },
        "batch_requests": dict(sorted(batch.by_verb.items())),
        "function_seconds_per_host": round(function_per_host, 5),
        "floor_seconds_per_host": round(floor_per_host, 5),
        "function_to_floor_ratio": round(function_per_host / floor_per_host, 2)
        if floor_per_host > 0
        else None,
        "floor_idle_seconds_per_host": round(floor_seconds / hosts, 5),
        "floor_samples": len(floor_samples),
        "floor_requests_per_host": floor_requests,
        "function_seconds_per_request": _per(
            function_per_host, per["reads"] + per["writes"] + per["events"]
        ),
        "floor_seconds_per_request": _per(floor_per_host, sum(floor_requests.values())),
        "cpu_seconds_per_host": round(cpu_seconds / hosts, 5),
        "floor_cold_start_seconds": floor_start,
        "cold_start_ratio_to_floor": cold_ratios,
        "reads_floor_per_host": 2 * pools + 4,
        "idle_requests": dict(sorted(idle.by_verb.items())),
        "cold_starts_in_batch": cold_starts_in_batch,
        "to_unpause_seconds": [round(t, 3) for t in to_unpause],
        **{f"{name}_in_batch": count for name, count in batch.outside.items()},
        "load_average": load or {},
    }


def _per(seconds: float, requests: float) -> float | None:
    """Seconds per API request (None without requests): what one request costs, apart from
    how many are made."""
    return round(seconds / requests, 6) if requests > 0 and math.isfinite(seconds) else None


def table(result: dict[str, Any]) -> str:
    """The report for people: the keys in groups under a heading (`legend`), each with what it
    means; a long value goes on a line of its own so the explanation stays readable."""
    lines: list[str] = []
    for heading, rows in legend.GROUPS:
        lines += ["", heading] if lines else [heading]
        for key, meaning in rows:
            lines += _row(key, _shown(key, result[key]), meaning)
    lines += ["", '(--json: the same figures as one JSON object; README "Performance")']
    return "\n".join(lines)


def _shown(key: str, value: Any) -> str:
    if key == "to_unpause_seconds":
        return f"{len(value)} values, median {statistics.median(value):.3f}s" if value else "-"
    return str(value)


def _row(key: str, value: str, meaning: str) -> list[str]:
    line = f"  {key:<28} {value:<10}  {meaning}"
    if len(line) <= WIDTH:
        return [line]
    return [f"  {key:<28} {meaning}", f"      {value}"]


WIDTH = 100


def write_plot(result: dict[str, Any], path: Path) -> Path:
    """`--plot`: this run's time to unpause per host (`bench.figures.unpause`)."""
    from dhcpless_sandbox.bench import figures

    return figures.unpause([result], path)
