#!/usr/bin/env python3
"""Run `python3 scripts/dev.py test` several times while other processes keep the CPUs busy.

Usage: python3 scripts/loaded-test.py [--runs N] [--load P] [-- pytest args...]

The suite must pass on a loaded machine, not only on a quiet one: this starts P processes that
spin (default 2), runs the test command N times in a row (default 5) with any pytest arguments
given after `--`, prints each run's result and time, and stops the load processes at the end.
It exits 0 only when every run passed. Only the standard library is used.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPIN = "while True:\n    pass\n"
RUN_TIMEOUT = 30 * 60
"""Seconds one run may take before it counts as failed (a quiet run takes under 5 minutes)."""


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="test runs in a row (default 5)")
    parser.add_argument("--load", type=int, default=2, help="CPU-bound processes (default 2)")
    parser.add_argument("pytest_args", nargs="*", help="passed to pytest (after `--`)")
    return parser.parse_args()


def _start_load(count: int) -> list[subprocess.Popen[bytes]]:
    return [subprocess.Popen([sys.executable, "-c", SPIN]) for _ in range(count)]


def _stop_load(processes: list[subprocess.Popen[bytes]]) -> None:
    for process in processes:
        process.terminate()
    for process in processes:
        process.wait()


def _run_once(number: int, total: int, pytest_args: list[str], logs: Path) -> bool:
    """One run in a session of its own, its output to a file: a process a test leaves behind
    can neither hold this script's pipes open nor outlive its run (its group is stopped)."""
    started = time.monotonic()
    command = [sys.executable, str(ROOT / "scripts" / "dev.py"), "test", *pytest_args]
    log = logs / f"run-{number}.log"
    with log.open("wb") as out:
        run = subprocess.Popen(command, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT,
                               start_new_session=True)  # fmt: skip
        try:
            returncode = run.wait(timeout=RUN_TIMEOUT)
        except subprocess.TimeoutExpired:
            returncode = -1
        _stop_group(run.pid)
    took = time.monotonic() - started
    text = log.read_text(errors="replace")
    summary = (text.strip().splitlines() or ["(no output)"])[-1]
    verdict = "PASSED" if returncode == 0 else f"FAILED (exit {returncode})"
    print(f"run {number}/{total}: {verdict} in {took:.0f}s - {summary}", flush=True)
    if returncode:
        print(text[-6000:], flush=True)
    return returncode == 0


def _stop_group(group: int) -> None:
    """Whatever the run left in its process group is killed (a clean run leaves nothing)."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(group, signal.SIGKILL)


def main() -> int:
    args = _arguments()
    load = _start_load(args.load)
    print(f"loaded-test: {args.load} CPU-bound processes started", flush=True)
    try:
        with tempfile.TemporaryDirectory(prefix="loaded-test-") as logs:
            results = [
                _run_once(i, args.runs, args.pytest_args, Path(logs))
                for i in range(1, args.runs + 1)
            ]
    finally:
        _stop_load(load)
        print("loaded-test: load processes stopped", flush=True)
    print(f"loaded-test: {sum(results)} of {len(results)} runs passed", flush=True)
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
