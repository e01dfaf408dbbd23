"""A resync tick stops at its budget and the next ping continues where it stopped.

Past the Service's `timeoutSeconds` queue-proxy answers 504 while the handler still runs
(knative serving `pkg/http/handler/timeout.go`), so a tick has a budget below it
(`functions.resync.cursor`). Here the clock is slow instead of the hosts: every reading of it
is one second later, so a tick of a 3 s budget reaches a few hosts, records the next one in
its cursor ConfigMap, and the next tick (a new app: a pod scaled to zero in between) starts
there. Without the cursor every tick would spend its budget on the first hosts again.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest
from flask.testing import FlaskClient
from kubernetes import client as k8s

from dhcpless import keys
from dhcpless.kube import Kube
from dhcpless_sandbox.apiserver.server import SandboxServer
from functions.resync.app import create_app
from functions.resync.settings import ResyncSettings
from tests.manifests.rbac_cache_steps import ping
from tests.support import harness, objects

HOSTS = [f"host-{i}" for i in range(7)]


class SlowClock:
    """A monotonic clock one second later at every reading."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


@pytest.fixture
def world() -> Iterator[SandboxServer]:
    with harness.running() as sandbox:
        harness.put(sandbox, objects.data_template(objects.IPV4))
        harness.put(sandbox, objects.POOL4)
        for name in HOSTS:
            harness.put(sandbox, objects.host(name))  # no events: only resync sees them
        yield sandbox


def _app(sandbox: SandboxServer, budget: float) -> FlaskClient:
    """A fresh resync app, as a cold start builds it (nothing kept in memory between ticks)."""
    kube = Kube(sandbox.api_client(token=harness.token("resync")))
    settings = ResyncSettings(namespace=objects.NS, budget_seconds=budget, workers=1)
    return create_app(kube, resync=settings, clock=SlowClock()).test_client()


def _claimed(sandbox: SandboxServer) -> set[str]:
    """Hosts with a claim: those a tick reached (the first reconcile of a host claims)."""
    return {h for h in HOSTS if harness.get(sandbox, "IPClaim", f"{h}-pool4") is not None}


def _cursor(sandbox: SandboxServer) -> str | None:
    """The cursor ConfigMap's `next` ("" when cleared), or None when there is none."""
    with sandbox.api_client() as api:
        try:
            found = k8s.CoreV1Api(api).read_namespaced_config_map(
                keys.RESYNC_CURSOR_CONFIGMAP, objects.NS
            )
        except k8s.ApiException as err:
            assert err.status == 404
            return None
    return str((found.data or {}).get("next", ""))


def test_a_tick_stops_at_its_budget_and_the_next_one_continues(world: SandboxServer) -> None:
    reached: list[set[str]] = []
    for _ in range(len(HOSTS)):
        assert ping(_app(world, budget=3.0)) == 204
        reached.append(_claimed(world))
        if reached[-1] == set(HOSTS):
            break
    first = reached[0]
    assert 0 < len(first) < len(HOSTS), "the first tick stopped at its budget"
    assert first == set(HOSTS[: len(first)]), "in key order"
    assert all(a < b for a, b in itertools.pairwise(reached)), "each tick went on"
    assert reached[-1] == set(HOSTS), "a round reached every host"
    assert len(reached) > 1


def test_the_cursor_names_the_first_host_not_reached_and_a_full_round_clears_it(
    world: SandboxServer,
) -> None:
    assert _cursor(world) is None
    assert ping(_app(world, budget=3.0)) == 204
    stopped = next(h for h in HOSTS if h not in _claimed(world))
    assert _cursor(world) == f"{objects.NS}/{stopped}"
    assert ping(_app(world, budget=1000.0)) == 204  # room for every host: the round completes
    assert _claimed(world) == set(HOSTS)
    assert _cursor(world) == ""


def test_a_tick_over_budget_at_once_still_reconciles_one_host(world: SandboxServer) -> None:
    """A budget smaller than any host takes: one host a tick, never none."""
    for count in range(1, 3):
        assert ping(_app(world, budget=1e-9)) == 204
        assert _claimed(world) == set(HOSTS[:count])


def test_a_cursor_on_a_host_since_deleted_continues_after_it(world: SandboxServer) -> None:
    with world.api_client() as api:
        body = k8s.V1ConfigMap(
            metadata=k8s.V1ObjectMeta(name=keys.RESYNC_CURSOR_CONFIGMAP),
            data={"next": f"{objects.NS}/host-3a"},  # between host-3 and host-4; never there
        )
        k8s.CoreV1Api(api).create_namespaced_config_map(objects.NS, body)
    assert ping(_app(world, budget=1e-9)) == 204
    assert _claimed(world) == {"host-4"}
