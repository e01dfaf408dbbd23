"""Finding 9 of issue 12: a host that waits on something that will not come says why.

IPAM answers nothing for a claim of a pool that does not exist, and nothing for a pool whose
`spec.clusterName` names a Cluster that does not exist (`controllers/ippool_controller.go`
returns without requeue). A resync tick finds such a waiting host and records one Warning
naming the pool and what is missing; the host stays paused.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator

import pytest
from kubernetes import client as k8s

from dhcpless import keys
from dhcpless.chain.predicates import answers
from dhcpless.keys import EventType
from dhcpless_sandbox.apiserver.server import SandboxServer
from dhcpless_sandbox.standins.capi_ipam import load_crds
from tests.manifests.rbac_lifecycle_steps import CAPI_GROUP, external_world
from tests.scenarios import steps
from tests.support import harness, objects


def _pool(cluster: str | None) -> steps.Obj:
    pool = copy.deepcopy(objects.POOL4)
    if cluster:
        pool["spec"]["clusterName"] = cluster
    return pool


@pytest.fixture
def world() -> Iterator[SandboxServer]:
    with harness.running() as sandbox:
        harness.put(sandbox, objects.data_template(objects.IPV4))
        yield sandbox


@pytest.mark.parametrize(
    ("pool", "expected"),
    [
        pytest.param(None, "IPPool metal3/pool4 not found", id="pool-missing"),
        pytest.param(_pool("c9"), "Cluster metal3/c9", id="cluster-missing"),
    ],
)
def test_a_claim_nobody_will_answer_is_a_warning(
    world: SandboxServer, pool: steps.Obj | None, expected: str
) -> None:
    if pool is not None:
        harness.put(world, pool)
    steps.register(world, objects.host())
    assert steps.ping(world) == 204
    assert steps.paused(world, "host-0")
    found = [m for r, m in steps.warnings(world, "host-0") if r == "ClaimUnanswered"]
    assert any(expected in m for m in found), steps.warnings(world, "host-0")


def test_a_pool_ipam_will_serve_is_no_warning(world: SandboxServer) -> None:
    harness.put(world, objects.POOL4)
    steps.register(world, objects.host())
    assert steps.ping(world) == 204
    assert [r for r, _ in steps.warnings(world, "host-0") if r == "ClaimUnanswered"] == []


def test_an_external_claim_without_an_answer_is_a_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    """The CAPI in-cluster provider writes no condition on an exhausted pool: a claim of ours
    with neither an address nor a failure is reported at a resync tick once it is not fresh
    (here at once: no waiting in tests)."""
    monkeypatch.setattr(answers, "FRESH_SECONDS", 0.0)
    with harness.running() as sandbox:
        load_crds(sandbox)
        pool, *rest = external_world()
        with sandbox.api_client() as admin:
            k8s.CustomObjectsApi(admin).create_namespaced_custom_object(
                CAPI_GROUP, "v1alpha2", objects.NS, "inclusterippools", pool
            )
        stored = [harness.put(sandbox, obj) for obj in rest]
        steps.fire(sandbox, "host-registration", stored[-1], EventType.RESOURCE_ADD)
        name = stored[-1]["metadata"]["name"]
        assert steps.ping(sandbox) == 204
        assert steps.paused(sandbox, name)
        found = [m for r, m in steps.warnings(sandbox, name) if r == "ClaimUnanswered"]
        assert any(m.startswith("IPAddressClaim ") for m in found), steps.warnings(sandbox, name)


def test_a_cluster_that_appears_later_gets_the_claim_looked_at_again(
    world: SandboxServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """IPAM does not watch Clusters: once the pool's Cluster exists, resync touches the
    unanswered claim so IPAM reconciles the pool again."""
    monkeypatch.setattr(answers, "FRESH_SECONDS", 0.0)
    harness.put(world, _pool("c9"))
    steps.register(world, objects.host())
    assert steps.ping(world) == 204
    assert keys.NUDGED_ANNOTATION not in _annotations(world)
    cluster = {"apiVersion": "cluster.x-k8s.io/v1beta2", "kind": "Cluster",
               "metadata": {"name": "c9", "namespace": objects.NS}}  # fmt: skip
    api, custom = steps.custom(world)
    with api:
        custom.create_namespaced_custom_object(
            "cluster.x-k8s.io", "v1beta2", objects.NS, "clusters", cluster
        )
    assert steps.ping(world) == 204
    assert keys.NUDGED_ANNOTATION in _annotations(world)


def _annotations(world: SandboxServer) -> dict[str, str]:
    found: dict[str, str] = (
        steps.fresh(world, "IPClaim", "host-0-pool4")["metadata"].get("annotations") or {}
    )
    return found
