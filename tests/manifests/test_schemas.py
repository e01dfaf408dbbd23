"""Every rendered object is valid for the API that will receive it.

Covers: all three kustomize trees render with the real kubectl; every object of the full
installation validates (Knative kinds against the upstream CRDs, built-in kinds against the
Kubernetes OpenAPI, PingSource against our stand-in); and mutated copies are rejected, which
shows the validation would catch a typo the API server would otherwise prune silently.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path

import pytest

from .schemas import schema_errors, upstream_validators
from .support import ROOT, Obj, kustomize, named


@pytest.mark.kubectl
@pytest.mark.parametrize(
    ("tree", "kinds"),
    [
        pytest.param(Path("deploy"), {"CustomResourceDefinition", "Service", "Role"}, id="deploy"),
        pytest.param(Path("eventing"), {"Broker", "Trigger", "ApiServerSource"}, id="eventing"),
        pytest.param(Path("deploy/overlays/example"), {"PingSource", "RoleBinding"}, id="example"),
    ],
)
def test_tree_renders(tree: Path, kinds: set[str]) -> None:
    rendered = {o["kind"] for o in kustomize(ROOT / tree)}
    assert kinds <= rendered


@pytest.mark.kubectl
def test_every_installed_object_matches_its_schema(installed: list[Obj]) -> None:
    errors = {f"{o['kind']}/{o['metadata']['name']}": schema_errors(o) for o in installed}
    assert {name: found for name, found in errors.items() if found} == {}


def test_upstream_knative_crds_are_loaded() -> None:
    loaded = {kind for _, kind in upstream_validators()}
    assert loaded >= {"Service", "Broker", "Trigger", "ApiServerSource"}


def _set(path: str, value: object) -> Callable[[Obj], None]:
    """A mutation that sets a dotted path (list indexes as digits), creating nothing."""

    def mutate(obj: Obj) -> None:
        *parents, last = path.split(".")
        node: object = obj
        for key in parents:
            node = node[int(key)] if isinstance(node, list) else node[key]  # type: ignore[index]
        if isinstance(node, list):
            node[int(last)] = value
        else:
            assert isinstance(node, dict)
            node[last] = value

    return mutate


MUTATIONS = [
    pytest.param(
        "Service", "resync", _set("spec.template.spec.containerConcurency", 4), id="ksvc-typo"
    ),
    pytest.param(
        "Service", "resync", _set("spec.template.spec.timeoutSeconds", "60"), id="ksvc-type"
    ),
    pytest.param("Trigger", "resync", _set("spec.delivery.retry", "5"), id="trigger-retry-string"),
    pytest.param("Trigger", "resync", _set("spec.subscriber.reff", {}), id="trigger-typo"),
    pytest.param(
        "Broker", "dhcpless", _set("spec.delivery.deadLetterSink.ref.nam", "x"), id="broker"
    ),
    pytest.param("ApiServerSource", "dhcpless-ipclaims", _set("spec.resources", {}), id="source"),
    pytest.param("PingSource", "dhcpless-resync", _set("spec.shedule", "* * * * *"), id="ping"),
    pytest.param("RoleBinding", "resync", _set("roleRef.kind", 7), id="rolebinding"),
    pytest.param("Role", "resync", _set("rules.0.verb", ["get"]), id="role"),
    pytest.param("ServiceAccount", "resync", _set("kind", "ServiceAcount"), id="unknown-kind"),
    pytest.param("Service", "resync", _set("metadata.labels", {"a": 1}), id="metadata"),
]


@pytest.mark.kubectl
@pytest.mark.parametrize(("kind", "name", "mutate"), MUTATIONS)
def test_schema_rejects_mutated_copy(
    installed: list[Obj], kind: str, name: str, mutate: Callable[[Obj], None]
) -> None:
    obj = copy.deepcopy(named(installed, kind, name))
    assert schema_errors(obj) == []
    mutate(obj)
    assert schema_errors(obj) != []


@pytest.mark.kubectl
def test_the_cluster_wide_option_matches_the_schemas() -> None:
    """deploy/cluster-wide as a user installs it (tests/manifests/cluster_wide, and one served
    namespace's bindings): ClusterRoles instead of Roles (but resync's cursor), bound per
    namespace, a namespaceSelector on every source, each object valid for its API."""
    objs = kustomize(ROOT / "tests" / "manifests" / "cluster_wide")
    objs += kustomize(ROOT / "tests" / "manifests" / "cluster_wide" / "site-a")
    errors = {f"{o['kind']}/{o['metadata']['name']}": schema_errors(o) for o in objs}
    assert {name: found for name, found in errors.items() if found} == {}
    kinds = {o["kind"] for o in objs}
    assert {"ClusterRole", "ClusterRoleBinding", "RoleBinding"} <= kinds
    assert [o["metadata"]["name"] for o in objs if o["kind"] == "Role"] == ["resync-cursor"]
