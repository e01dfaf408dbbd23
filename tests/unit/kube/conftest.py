"""Fixtures of the watch cache's tests: a sandbox with one pool, one template and one machine
template (`world`), and an adapter with a watch cache calling it as `cached`."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from kubernetes import client as k8s

from dhcpless.kube import Kube
from dhcpless.kube.cache.watchcache import WatchCache
from dhcpless_sandbox.apiserver.server import SandboxServer
from tests.support import objects
from tests.support.waits import seconds
from tests.unit.kube.cache_support import HISTORY, NS, create


@pytest.fixture
def world() -> Iterator[SandboxServer]:
    """A sandbox with a short watch history, a pool, a template and a machine template."""
    with SandboxServer(history=HISTORY) as server:
        server.load_builtin_crds()
        with server.api_client() as api:
            k8s.CoreV1Api(api).create_namespace(k8s.V1Namespace(metadata=k8s.V1ObjectMeta(name=NS)))
        for obj in (objects.POOL4, objects.data_template(objects.IPV4, "tmpl")):
            create(server, obj)
        create(server, objects.machine_template("mt", "tmpl", {"rack": "r1"}))
        yield server


@pytest.fixture
def cached(world: SandboxServer) -> Iterator[tuple[Kube, WatchCache]]:
    api = world.api_client(token="cached-token")
    world.add_token("cached-token", "cached")
    cache = WatchCache(api, first_sync=seconds(5))
    yield Kube(api, cache=cache), cache
    cache.stop()
