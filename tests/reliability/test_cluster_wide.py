"""The cluster-wide option (deploy/cluster-wide, issue 14 finding 9) under enforced RBAC.

The example installation rendered with the component (tests/manifests/cluster_wide, by the
real kubectl kustomize), with the RoleBindings of `deploy/cluster-wide/namespace` in each of
three namespaces labelled for the sources' namespaceSelector, is loaded into the sandbox's
authorizer: the functions and sources in `dhcpless-system`, bound in those three namespaces
only (the one ClusterRoleBinding: resync's `list` of Namespaces), and one namespace that is
neither labelled nor bound. Every host
of the selected namespaces reaches `available`, no request of a function or a source is
refused (no 403), and resync lists the hosts of exactly the selected namespaces.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from dhcpless import keys
from dhcpless.kube import Kube
from dhcpless.kube.api import namespaces
from dhcpless_sandbox.apiserver.rbac import service_account
from dhcpless_sandbox.demo.inventory import create, inventory
from dhcpless_sandbox.demo.report import observe
from dhcpless_sandbox.runtime.world import World
from dhcpless_sandbox.runtime.world_settings import WorldSettings
from functions.resync.app import watched_namespaces
from functions.resync.settings import ResyncSettings
from tests.manifests.support import ROOT, kustomize
from tests.support.waits import eventually, seconds

pytestmark = [pytest.mark.e2e, pytest.mark.kubectl]

HOME = "dhcpless-system"
SELECTED = ("site-a", "site-b", "site-c")
LABEL = "dhcpless.metal3.io/hosts"


def _selector() -> str:
    """The selector the component gives resync (and, as labels, the sources)."""
    component = yaml.safe_load(
        (ROOT / "deploy" / "cluster-wide" / "kustomization.yaml").read_text()
    )
    for patch in component["patches"]:
        ops = yaml.safe_load(patch["patch"])
        for op in ops if isinstance(ops, list) else ():  # a JSON patch (not a `$patch: delete`)
            value = op["value"]
            if isinstance(value, dict) and value.get("name") == keys.NAMESPACE_SELECTOR_ENV:
                return str(value["value"])
    raise AssertionError("the component sets no namespace selector for resync")


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> Path:
    objs = kustomize(ROOT / "tests" / "manifests" / "cluster_wide")
    homed = {
        (o["kind"], o["metadata"]["name"]) for o in objs if o["kind"] in ("Role", "RoleBinding")
    }
    assert homed == {("Role", "resync-cursor"), ("RoleBinding", "resync-cursor")}
    bindings = kustomize(ROOT / "deploy" / "cluster-wide" / "namespace")
    for namespace in SELECTED:  # as `namespace: site-a` in a kustomization per namespace
        objs += [{**b, "metadata": {**b["metadata"], "namespace": namespace}} for b in bindings]
    assert all(o["spec"].get("namespaceSelector") for o in objs if o["kind"] == "ApiServerSource")
    path = tmp_path_factory.mktemp("cluster-wide") / "rendered.yaml"
    path.write_text(yaml.safe_dump_all(objs))
    return path


@pytest.fixture(scope="module")
def world(rendered: Path) -> Iterator[World]:
    settings = WorldSettings(
        rbac_files=(rendered,), namespace=HOME, namespace_selector=_selector(),
        resync_seconds=1.0, idle_seconds=1.0,
    )  # fmt: skip
    world = World(settings)
    world.start()
    try:
        yield world
    finally:
        world.stop()


def _labelled(objs: list[dict[str, object]], selected: bool) -> list[dict[str, object]]:
    key, value = _selector().split("=")
    for obj in objs:
        if obj["kind"] == "Namespace" and selected:
            obj["metadata"] = {**obj["metadata"], "labels": {key: value}}  # type: ignore[dict-item]
    return objs


def _all_available(world: World, namespace: str, hosts: int) -> None:
    """Poll the API until the chain has made every host of `namespace` available."""
    api = world.api_client()

    def states() -> list[str] | None:
        found = [r.state for r in observe(api, namespace)]
        return found if found == ["available"] * hosts else None

    eventually(states, 45, f"{hosts} hosts of {namespace} available")


@pytest.mark.e2e
def test_hosts_in_three_namespaces_reach_available_with_no_403(world: World) -> None:
    hosts = 2
    assert world.authorizer is not None
    for name in ("host-registration", "ipclaim-fulfilment", "resync", "dhcpless-baremetalhosts"):
        assert service_account(HOME, name) in world.authorizer.subjects
    for namespace in SELECTED:
        create(world.api_client(), _labelled(inventory(hosts, namespace), selected=True))
    for namespace in SELECTED:
        _all_available(world, namespace, hosts)
    assert world.broker.wait_idle(seconds(10))
    assert [str(d) for d in world.authorizer.denied] == []
    used = {(r.identity, r.namespace) for r in world.sandbox.audit.records}
    for namespace in SELECTED:
        assert (service_account(HOME, "host-registration"), namespace) in used


@pytest.mark.e2e
def test_resync_lists_exactly_the_selected_namespaces(world: World) -> None:
    create(world.api_client(), _labelled(inventory(1, "not-selected"), selected=False))
    kube = Kube(world.api_client(token="resync-sa-token"))
    resync = ResyncSettings(namespace=HOME, namespace_selector=_selector())
    assert watched_namespaces(kube, resync) == sorted(SELECTED)
    assert namespaces.selected(kube, _selector()) == sorted(SELECTED)
    assert world.authorizer is not None and world.authorizer.denied == []
