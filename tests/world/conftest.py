"""Fixtures for the world tests: a sandbox API server with the upstream Metal3 CRDs."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from kubernetes import client

from dhcpless_sandbox.apiserver.server import SandboxServer
from dhcpless_sandbox.runtime.world import World
from dhcpless_sandbox.runtime.world_settings import WorldSettings
from tests.support import upstream

UPSTREAM_CRDS = upstream.METAL3_CRDS
METAL3_CRDS = tuple(
    sorted(
        p
        for p in upstream.required(UPSTREAM_CRDS).glob("*.yaml")
        if p.name.startswith(("ipam.", "metal3.io_bare"))
    )
)
"""The upstream IPAM and BareMetalHost CRDs (the strictest schemas our stand-ins write to)."""


@pytest.fixture
def server() -> Iterator[SandboxServer]:
    with SandboxServer() as srv:
        srv.load_builtin_crds()
        for path in METAL3_CRDS:
            srv.apply_crd_file(path)
        yield srv


@pytest.fixture
def api(server: SandboxServer) -> Iterator[client.ApiClient]:
    made: Any = server.api_client()
    yield made
    made.close()


@pytest.fixture
def world() -> Iterator[World]:
    """A whole world (sources, broker, functions, stand-ins) with a half-second resync; a test
    module that needs other settings defines its own `world`."""
    started = World(WorldSettings(resync_seconds=0.5, idle_seconds=0.5))
    started.start()
    yield started
    started.stop()
