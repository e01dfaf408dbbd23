"""Issue 24, finding 2: pools of two served namespaces that cover one range.

In the cluster-wide layout a tenant may create IPPools in its own namespace
(`tenant.CREATE_POOLS`). Its pool covering addresses another namespace's pool covers gave
both namespaces' hosts the same addresses with no Warning: the pool rule looks inside one
namespace only. Sites reuse ranges on separate networks, so this is not refused; resync, which
lists every served namespace, posts one `PoolsOverlap` Warning on each pool of the pair
(`chain.decide.overlaps`). With one namespace served nothing is said (the pool rule's case).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from kubernetes import client as k8s

from dhcpless import keys
from dhcpless.kube import Kube
from dhcpless.kube.events import recorder
from dhcpless_sandbox.apiserver.server import SandboxServer
from functions.resync.app import create_app as resync_app
from functions.resync.settings import ResyncSettings
from tests.adversary import tenant
from tests.manifests.rbac_cache_steps import ping
from tests.support import harness, objects, scenario

LABEL = "dhcpless.metal3.io/hosts"
SITES = ("site-a", "site-b", "site-c")
RANGES = {"site-a": ("10.0.0.10", "10.0.0.20"), "site-c": ("10.1.0.10", "10.1.0.20")}


def _pool(namespace: str, name: str, start: str, end: str) -> objects.Obj:
    pool = objects.pool(name, start, end, 24, start.rsplit(".", 1)[0] + ".1", [])
    pool["metadata"]["namespace"] = namespace
    return pool


@pytest.fixture
def world() -> Iterator[SandboxServer]:
    """Three served namespaces; site-a and site-c have disjoint pools of their own."""
    with harness.running() as sandbox, sandbox.api_client() as api:
        for site in SITES:
            labels = {LABEL: "enabled"}
            k8s.CoreV1Api(api).create_namespace(
                k8s.V1Namespace(metadata=k8s.V1ObjectMeta(name=site, labels=labels))
            )
        for site, (start, end) in RANGES.items():
            scenario.create(api, _pool(site, "prov", start, end))
        yield sandbox


def _tick(world: SandboxServer, selector: str) -> None:
    with world.api_client(token=harness.IDENTITIES["resync"]) as api:
        settings = ResyncSettings(namespace=objects.NS, namespace_selector=selector)
        assert ping(resync_app(Kube(api), resync=settings).test_client()) == 204
    recorder.flush()


def _warned(world: SandboxServer) -> list[tuple[str, str, str]]:
    """(namespace, pool, message) of every PoolsOverlap Warning."""
    with world.api_client() as api:
        listing = k8s.CoreV1Api(api).list_event_for_all_namespaces()
    return sorted(
        (e.metadata.namespace or "", e.involved_object.name or "", e.message or "")
        for e in listing.items
        if e.reason == "PoolsOverlap" and e.type == "Warning"
        and e.involved_object.kind == "IPPool"
    )  # fmt: skip


def test_a_tenants_pool_overlapping_another_namespaces_is_a_warning(world: SandboxServer) -> None:
    with tenant.acting(world, tenant.CREATE_POOLS, namespace="site-b") as attacker:
        attacker.create(_pool("site-b", "mine", "10.0.0.15", "10.0.0.30"))
    _tick(world, f"{LABEL}=enabled")
    warned = _warned(world)
    assert [(ns, pool) for ns, pool, _ in warned] == [("site-a", "prov"), ("site-b", "mine")]
    assert all("10.0.0.15-10.0.0.20" in message for _, _, message in warned)
    assert "site-c" not in {ns for ns, _, _ in warned}
    with world.api_client() as api:
        kept = k8s.CustomObjectsApi(api).get_namespaced_custom_object(
            keys.IPAM_GROUP, keys.IPAM_VERSION, "site-b", "ippools", "mine"
        )
    assert isinstance(kept, dict) and kept["metadata"]["name"] == "mine"  # not refused


def test_one_namespace_served_says_nothing_about_other_namespaces(world: SandboxServer) -> None:
    with world.api_client() as api:
        scenario.create(api, _pool("site-b", "mine", "10.0.0.15", "10.0.0.30"))
    _tick(world, "")
    assert _warned(world) == []
