"""Top-level fixtures: a sandbox Kubernetes API per test, clients for it, the upstream CRDs."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from _pytest.terminal import TerminalReporter
from flask import Flask

from dhcpless import tracing
from dhcpless.serving import logs
from dhcpless_sandbox.apiserver.server import SandboxServer
from dhcpless_sandbox.eventing import broker
from dhcpless_sandbox.eventing.delivery import BrokerMode
from dhcpless_sandbox.runtime import wiring
from tests.fuzz import count as fuzz_count
from tests.support import upstream
from tests.support.posted import PostedClient

REPO_ROOT = Path(__file__).resolve().parent


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--broker-mode",
        choices=[mode.value for mode in BrokerMode],
        default=broker.DEFAULT_MODE.value,
        help="delivery model of every sandbox Broker built without one (default: sync)",
    )
    parser.addoption(
        "--kube-cache",
        choices=["on", "off"],
        default="on",
        help="the embedded worlds' functions read templates and IPPools through the watch "
        "cache their pods have (default: on, as deployed; off: every read is a request)",
    )


def pytest_configure(config: pytest.Config) -> None:
    """Run the same tests against either broker: the installed default or the async one."""
    broker.DEFAULT_MODE = BrokerMode(config.getoption("--broker-mode"))
    Flask.test_client_class = PostedClient  # a request returns with its Events posted
    wiring.KUBE_CACHE = config.getoption("--kube-cache") == "on"


def pytest_report_header(config: pytest.Config) -> str:
    cache = "on" if wiring.KUBE_CACHE else "off"
    return f"sandbox broker mode: {broker.DEFAULT_MODE.value}; functions' watch cache: {cache}"


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Sum the fuzz tests' input counts where the run reports (the xdist controller too)."""
    if report.when == "teardown":
        fuzz_count.add_up(report)


def pytest_terminal_summary(terminalreporter: TerminalReporter) -> None:
    if line := fuzz_count.summary():
        terminalreporter.write_line(line)


@pytest.fixture
def sandbox() -> Iterator[SandboxServer]:
    """A started sandbox API server with our own Metal3 CRDs, stopped after the test."""
    server = SandboxServer()
    server.load_builtin_crds()
    with server:
        yield server


@pytest.fixture
def api_client(sandbox: SandboxServer) -> Iterator[Any]:
    """A `kubernetes.client.ApiClient` for `sandbox` (closed after the test)."""
    client = sandbox.api_client()
    try:
        yield client
    finally:
        client.close()


@pytest.fixture(scope="session")
def shared_crds_dir() -> Path:
    """The upstream CRDs beside the checkout (`../shared/crds`); CI always has them."""
    return upstream.required(upstream.CRDS)


SLOW_MARKERS = frozenset({"e2e", "kubectl", "bench", "netns"})
"""Tests with these markers start a whole world, a subprocess or kubectl: the slow tier."""

SLOW_PATHS = (
    "tests/fuzz/",
    "tests/perf/",
    "tests/contracts/",
    "tests/cli/test_cli_errors.py",
    "tests/manifests/test_image.py",
    "tests/manifests/test_image_contents.py",
    "tests/manifests/test_edge_limits.py",
    "tests/image/",
)
"""Whole files in the slow tier: property-based fuzzing, import-time measurements, a
subprocess per case (lint-imports on a copied tree, the console script), a wheel built with
pip, and gunicorn started as a container would start it."""

KEPT_TOGETHER = (
    "tests/perf/test_bench.py",
    "tests/manifests/test_image.py",
    "tests/manifests/test_image_contents.py",
    "tests/manifests/test_rbac_e2e.py",
    "tests/reliability/test_cluster_wide.py",
    "tests/image/test_image_run.py",
)
"""Modules whose module-scoped fixture costs seconds (a bench run, a built wheel, served
gunicorns, a world): under pytest-xdist (`--dist loadgroup`) each runs whole in one worker, so
the fixture is built once. Other tests are dealt out one by one (`tests/support/scheduling.py`)."""


LONGEST_FIRST = (
    "tests/image/test_image_run.py",
    "tests/perf/test_bench.py",
    "tests/fuzz/test_names_glean.py",
    "tests/fuzz/test_endpoints.py",
    "tests/reliability/test_chaos.py::test_chaos_30_hosts",
    "tests/world/test_world_e2e.py",
    "tests/manifests/test_edge_limits.py",
    "tests/cli/test_demo_output.py",
    "tests/scenarios/test_world_changes.py",
    "tests/perf/test_resync_memory.py",
)
"""Node id prefixes of the longest work units (a `--durations` profile of the whole suite),
started first and in this order, so the workers end together (`tests/support/scheduling.py`)."""


@pytest.hookimpl(optionalhook=True)  # an xdist hook: only called when xdist runs the suite
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object:
    """`--dist loadgroup` with our groups (KEPT_TOGETHER); other modes stay xdist's own."""
    if config.getvalue("dist") != "loadgroup":
        return None
    from tests.support.scheduling import KeptTogether  # xdist is imported only when it runs

    scheduler = KeptTogether(config, log)
    scheduler.kept, scheduler.first = KEPT_TOGETHER, LONGEST_FIRST
    return scheduler


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects, so `-m "not slow"` sees the marker
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the slow tier in one place: `pytest -m "not slow"` is the fast tier, and plain
    `pytest` (what CI runs) runs both."""
    for item in items:
        where = item.path.relative_to(REPO_ROOT).as_posix()
        marked = SLOW_MARKERS.intersection(m.name for m in item.iter_markers())
        if marked or where.startswith(SLOW_PATHS):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True)
def _fresh_log_context() -> Iterator[None]:
    """Each test starts with no trace, host or delivery bound, and leaves none: a handler's step
    called in-process (`chain.act` binds the host) must not name a host on a later test's line."""
    trace, host = tracing.CURRENT.set(None), tracing.HOST.set(None)
    follow, delivery = tracing.ON_FOLLOW.set(None), logs.DELIVERY.set(None)
    yield
    logs.DELIVERY.reset(delivery)
    tracing.ON_FOLLOW.reset(follow)
    tracing.HOST.reset(host)
    tracing.CURRENT.reset(trace)
