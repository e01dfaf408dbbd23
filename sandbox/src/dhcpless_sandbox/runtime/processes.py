"""Functions as real processes: gunicorn on a socket the parent bound, started on first request.

Exists beside `runner.FunctionService` (threads in this process) because cold start and memory
can only be measured on a process of its own, the way a pod runs it. The parent binds the
listening socket (port 0) and hands it to gunicorn as `fd://N`, so the first request waits in
the kernel's backlog exactly as Knative's activator holds it: `cold_start_seconds` is from
`Popen` to that first answer, with no readiness polling in between. Same interface as
`FunctionService`, so the broker and the reaper use either.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

GUNICORN_ARGS = (
    "--workers", "1", "--threads", "4",
    "--worker-class", "dhcpless.serving.headguard.HeadGuardedWorker",
)  # fmt: skip
"""As deploy/gunicorn_conf.py: one worker process, four threads, the head deadline."""
GUNICORN_CONFIG = ("--config", "python:dhcpless.serving.gunicorn_slim")
"""As deploy/gunicorn_conf.py: `dhcpless.serving.slim` installed before the app is imported."""


@dataclass(frozen=True)
class ProcessSpec:
    """What to run: a gunicorn app-factory string and the environment it needs."""

    app: str
    env: Mapping[str, str] = field(default_factory=dict)
    log: Path | None = None


@dataclass
class _Running:
    process: subprocess.Popen[bytes]
    sock: socket.socket
    started: float
    answered: bool = False


class ProcessFunctionService:
    """One function as a gunicorn process, scaled to zero when idle (pid-targeted stop)."""

    def __init__(self, name: str, spec: ProcessSpec, idle_seconds: float) -> None:
        self.name, self.spec, self._idle = name, spec, idle_seconds
        self._lock = threading.Lock()
        self._run: _Running | None = None
        self._in_flight, self._last_used = 0, 0.0
        self.cold_starts = self.invocations = 0
        self.cold_start_seconds: list[float] = []
        """Popen to first answer, one entry per cold start."""
        self.peak_pss_mb = 0.0
        """The largest memory seen (sampled on demand and before each scale to zero)."""

    @contextmanager
    def request(self) -> Iterator[str]:
        """Yield the URL for one request, spawning the process first if none runs."""
        with self._lock:
            run = self._run or self._spawn()
            self._in_flight += 1
            self.invocations += 1
        try:
            yield f"http://127.0.0.1:{run.sock.getsockname()[1]}/"
        finally:
            self._done(run)

    def _done(self, run: _Running) -> None:
        with self._lock:
            self._in_flight -= 1
            self._last_used = time.monotonic()
            if not run.answered:
                run.answered = True
                self.cold_start_seconds.append(self._last_used - run.started)

    @property
    def running(self) -> bool:
        return self._run is not None

    @property
    def pids(self) -> list[int]:
        """The gunicorn arbiter and its worker(s), while running."""
        run = self._run
        return [] if run is None else [run.process.pid, *children(run.process.pid)]

    def sample(self) -> float:
        """Memory of the running process tree now (0 when scaled to zero); keeps the peak."""
        now = pss_mb(self.pids)
        self.peak_pss_mb = max(self.peak_pss_mb, now)
        return now

    def reap(self, now: float) -> bool:
        with self._lock:
            idle = self._in_flight == 0 and now - self._last_used >= self._idle
            run, self._run = (self._run, None) if idle else (None, self._run)
        if run is not None:
            self.peak_pss_mb = max(self.peak_pss_mb, pss_mb([run.process.pid, *_kids(run)]))
            _terminate(run)
        return run is not None

    def stop(self) -> None:
        self._idle = 0.0
        self.reap(float("inf"))

    def _spawn(self) -> _Running:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        sock.listen(128)
        started = time.monotonic()
        process = spawn(self.spec, sock.fileno())
        self._run, self.cold_starts = _Running(process, sock, started), self.cold_starts + 1
        return self._run


def spawn(spec: ProcessSpec, fd: int) -> subprocess.Popen[bytes]:
    """gunicorn serving `spec.app` on the inherited listening socket `fd`."""
    command = [sys.executable, "-m", "gunicorn", *GUNICORN_CONFIG, "--bind", f"fd://{fd}"]
    command += GUNICORN_ARGS
    out = open(spec.log, "ab") if spec.log else subprocess.DEVNULL  # noqa: SIM115
    try:
        return subprocess.Popen(
            [*command, "--log-level", "warning", spec.app],
            env={**os.environ, **spec.env},
            pass_fds=(fd,),
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=out,
        )
    finally:
        if spec.log:
            out.close()  # type: ignore[union-attr]


def _terminate(run: _Running) -> None:
    """SIGQUIT to the arbiter we started (it stops its worker), then wait; never a broad kill.

    gunicorn's quick shutdown (`Arbiter.handle_quit`; the worker's `handle_quit` exits 0), not
    SIGTERM's graceful one: a process is stopped only with no request in flight, and a graceful
    gthread worker keeps a client's idle kept-alive connection open for `STOP_KEEPALIVE_LINGER`
    (2 s, gunicorn `workers/gthread.py`, `ThreadWorker.run`) waiting for a request that cannot
    come, which was most of every stop."""
    if run.process.poll() is None:
        run.process.send_signal(signal.SIGQUIT)
    try:
        run.process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        run.process.kill()
        run.process.wait()
    run.sock.close()


def _kids(run: _Running) -> list[int]:
    return children(run.process.pid)


def children(pid: int) -> list[int]:
    """Direct children of `pid` (Linux /proc), empty where unavailable."""
    path = Path(f"/proc/{pid}/task/{pid}/children")
    try:
        return [int(p) for p in path.read_text().split()]
    except OSError:
        return []


def pss_mb(pids: list[int]) -> float:
    """Proportional set size of the processes, in MiB: what a pod's memory counts once."""
    total_kb = 0
    for pid in pids:
        try:
            lines = Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()
        except OSError:
            continue
        total_kb += sum(int(line.split()[1]) for line in lines if line.startswith("Pss:"))
    return round(total_kb / 1024, 1)
