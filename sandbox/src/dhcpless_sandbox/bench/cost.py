"""What the functions themselves spent in one window: handler seconds and CPU seconds.

Exists apart from the runner because both are read from outside the processes, so measuring
costs the functions nothing extra. Handler time is gunicorn's own request time (`%(D)s`, in
microseconds, one access-log line per request: `ACCESS_ARGS`), summed over the requests that
started and ended inside the window; CPU time is `utime + stime` of each gunicorn process
tree from `/proc/<pid>/stat` (proc(5)), the difference between two snapshots.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path

ACCESS_ARGS = "--access-logfile {path} --access-logformat %(D)s"
"""`GUNICORN_CMD_ARGS` for a function process: one line per request, its time in µs."""

_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def log_offsets(paths: Iterable[Path]) -> dict[Path, int]:
    """Where each access log ends now (0 when not written yet)."""
    return {path: path.stat().st_size if path.exists() else 0 for path in paths}


def handler_seconds(start: Mapping[Path, int], end: Mapping[Path, int]) -> float:
    """Sum of the request times logged between two `log_offsets` snapshots."""
    total_us = 0
    for path, begin in start.items():
        if end.get(path, 0) <= begin:
            continue
        with path.open("rb") as log:
            log.seek(begin)
            chunk = log.read(end[path] - begin)
        total_us += sum(int(line) for line in chunk.split() if line.isdigit())
    return total_us / 1e6


def cpu_snapshot(pids: Iterable[int]) -> dict[int, float]:
    """CPU seconds (user + system) each live process has used so far."""
    seconds: dict[int, float] = {}
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        seconds[pid] = (int(fields[11]) + int(fields[12])) / _TICKS  # utime, stime
    return seconds


def cpu_seconds(start: Mapping[int, float], end: Mapping[int, float]) -> float:
    """CPU used between the snapshots; a process started in between counts from zero."""
    return sum(used - start.get(pid, 0.0) for pid, used in end.items())
