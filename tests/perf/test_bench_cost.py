"""`bench_cost`: request times from gunicorn access logs between two snapshots, and CPU seconds
from /proc, with processes that start in between counted from zero."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from dhcpless_sandbox.bench.cost import (
    ACCESS_ARGS,
    cpu_seconds,
    cpu_snapshot,
    handler_seconds,
    log_offsets,
)


@pytest.mark.parametrize(
    ("before", "after", "seconds"),
    [
        pytest.param("", "1500\n2500\n", 0.004, id="from-empty"),
        pytest.param("999999\n", "1000\n", 0.001, id="only-after-the-snapshot"),
        pytest.param("7\n", "", 0.0, id="nothing-new"),
        pytest.param("", "oops\n250000\n", 0.25, id="non-numbers-skipped"),
    ],
)
def test_handler_seconds_between_snapshots(
    tmp_path: Path, before: str, after: str, seconds: float
) -> None:
    log = tmp_path / "fn.access"
    log.write_text(before)
    start = log_offsets([log, tmp_path / "never-written.access"])
    with log.open("a") as out:
        out.write(after)
    end = log_offsets([log, tmp_path / "never-written.access"])
    assert handler_seconds(start, end) == pytest.approx(seconds)


def test_cpu_seconds_count_new_processes_from_zero() -> None:
    me = os.getpid()
    start = cpu_snapshot([me])
    sum(i * i for i in range(300_000))  # burn a little CPU
    end = cpu_snapshot([me, 2**22 + 12345])  # a pid that does not exist is left out
    assert set(end) == {me}
    assert cpu_seconds(start, end) >= 0
    assert cpu_seconds({}, end) == pytest.approx(end[me])
    assert cpu_seconds({me: 1.0}, {me: 3.5, 7: 0.5}) == pytest.approx(3.0)


def test_access_args_log_one_time_per_request() -> None:
    assert ACCESS_ARGS.format(path="/x").split() == [
        "--access-logfile", "/x", "--access-logformat", "%(D)s",
    ]  # fmt: skip
