"""Top-level fixtures: a sandbox Kubernetes API per test, clients for it, the upstream CRDs."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dhcpless.sandbox import broker
from dhcpless.sandbox.apiserver import SandboxServer

REPO_ROOT = Path(__file__).resolve().parent.parent


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--broker-mode",
        choices=[mode.value for mode in broker.BrokerMode],
        default=broker.DEFAULT_MODE.value,
        help="delivery model of every sandbox Broker built without one (default: sync)",
    )


def pytest_configure(config: pytest.Config) -> None:
    """Run the same tests against either broker: the installed default or the async one."""
    broker.DEFAULT_MODE = broker.BrokerMode(config.getoption("--broker-mode"))


def pytest_report_header(config: pytest.Config) -> str:
    return f"sandbox broker mode: {broker.DEFAULT_MODE.value}"


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
    path = REPO_ROOT.parent / "shared" / "crds"
    if not path.is_dir():
        pytest.fail(f"upstream CRDs not found at {path}: the checkout needs ../shared beside it")
    return path
