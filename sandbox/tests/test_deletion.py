"""Deletion through the official client: finalizers, ownerReference GC, namespaces, CRDs.

Covers: a finalizer blocks deletion (deletionTimestamp + deletionGracePeriodSeconds 0, MODIFIED
event) until an update removes it (DELETED event); no new finalizers while terminating;
background cascade through ownerReferences (only when every owner is gone), Orphan and
Foreground propagation; deleting a namespace deletes its objects; deleting a CRD deletes its
objects and stops serving it; delete returns a Success Status for core kinds.
"""

from __future__ import annotations

import pytest
from kubernetes.client import (
    ApiClient,
    ApiException,
    ApiextensionsV1Api,
    CoreV1Api,
    V1ConfigMap,
    V1Namespace,
)

from dhcpless_sandbox.apiserver.server import SandboxServer

from .helpers import BMH, JSON, Custom, create_host, get_host, meta, status_of, watch_events


@pytest.fixture
def co(api_client: ApiClient) -> Custom:
    return Custom(api_client)


def _owner_ref(owner: JSON) -> JSON:
    return {
        "apiVersion": owner["apiVersion"],
        "kind": owner["kind"],
        "name": owner["metadata"]["name"],
        "uid": owner["metadata"]["uid"],
    }


def _uid(obj: V1ConfigMap) -> str:
    assert obj.metadata is not None and obj.metadata.uid is not None
    return obj.metadata.uid


def _exists(co: Custom, name: str) -> bool:
    try:
        get_host(co, name)
    except ApiException as error:
        assert error.status == 404
        return False
    return True


def test_finalizer_blocks_deletion_until_removed(co: Custom) -> None:
    rv = create_host(co, metadata={"name": "h1", "finalizers": ["example.com/hold"]})["metadata"][
        "resourceVersion"
    ]
    deleting = co.delete_namespaced_custom_object(*BMH, "h1")
    assert deleting["metadata"]["deletionGracePeriodSeconds"] == 0
    assert deleting["metadata"]["deletionTimestamp"]
    assert _exists(co, "h1")
    co.patch_namespaced_custom_object(*BMH, "h1", {"metadata": {"finalizers": None}})
    assert not _exists(co, "h1")
    events = watch_events(
        co.list_namespaced_custom_object, *BMH, resource_version=rv, timeout_seconds=1
    )
    assert [e["type"] for e in events] == ["MODIFIED", "DELETED"]


def test_no_new_finalizers_while_terminating(co: Custom) -> None:
    create_host(co, metadata={"name": "h1", "finalizers": ["a/b"]})
    co.delete_namespaced_custom_object(*BMH, "h1")
    with pytest.raises(ApiException) as caught:
        co.patch_namespaced_custom_object(*BMH, "h1", {"metadata": {"finalizers": ["a/b", "c/d"]}})
    assert caught.value.status == 422
    assert status_of(caught.value)["details"]["causes"][0]["field"] == "metadata.finalizers"


def test_background_cascade_needs_every_owner_gone(co: Custom) -> None:
    one, two = create_host(co, "owner1"), create_host(co, "owner2")
    create_host(co, "child", metadata={"name": "child", "ownerReferences": [_owner_ref(one)]})
    create_host(
        co,
        "shared",
        metadata={"name": "shared", "ownerReferences": [_owner_ref(one), _owner_ref(two)]},
    )
    co.delete_namespaced_custom_object(*BMH, "owner1")
    assert (_exists(co, "child"), _exists(co, "shared")) == (False, True)
    assert [r["name"] for r in get_host(co, "shared")["metadata"]["ownerReferences"]] == ["owner2"]
    co.delete_namespaced_custom_object(*BMH, "owner2")
    assert not _exists(co, "shared")


def test_cascade_to_another_kind_and_grandchildren(api_client: ApiClient, co: Custom) -> None:
    core = CoreV1Api(api_client)
    owner = create_host(co, "owner")
    child = core.create_namespaced_config_map(
        "default", V1ConfigMap(metadata=meta("child", owner_references=[_owner_ref(owner)]))
    )
    ref = {"apiVersion": "v1", "kind": "ConfigMap", "name": "child", "uid": _uid(child)}
    core.create_namespaced_config_map(
        "default", V1ConfigMap(metadata=meta("grandchild", owner_references=[ref]))
    )
    co.delete_namespaced_custom_object(*BMH, "owner")
    assert core.list_namespaced_config_map("default").items == []


def test_orphan_keeps_dependents_and_drops_the_reference(co: Custom) -> None:
    owner = create_host(co, "owner")
    create_host(co, "child", metadata={"name": "child", "ownerReferences": [_owner_ref(owner)]})
    co.delete_namespaced_custom_object(*BMH, "owner", propagation_policy="Orphan")
    assert "ownerReferences" not in get_host(co, "child")["metadata"]


def test_foreground_waits_for_dependents(co: Custom) -> None:
    owner = create_host(co, "owner")
    create_host(
        co,
        "child",
        metadata={"name": "child", "finalizers": ["a/b"], "ownerReferences": [_owner_ref(owner)]},
    )
    deleting = co.delete_namespaced_custom_object(*BMH, "owner", propagation_policy="Foreground")
    assert deleting["metadata"]["finalizers"] == ["foregroundDeletion"]
    assert _exists(co, "owner") and get_host(co, "child")["metadata"]["deletionTimestamp"]
    co.patch_namespaced_custom_object(*BMH, "child", {"metadata": {"finalizers": None}})
    assert not _exists(co, "child") and not _exists(co, "owner")


def test_namespace_deletion_deletes_its_objects(api_client: ApiClient, co: Custom) -> None:
    core = CoreV1Api(api_client)
    core.create_namespace(V1Namespace(metadata=meta("lab")))
    co.create_namespaced_custom_object(
        "metal3.io",
        "v1alpha1",
        "lab",
        "baremetalhosts",
        {"apiVersion": "metal3.io/v1alpha1", "kind": "BareMetalHost", "metadata": {"name": "h"}},
    )
    create_host(co, "survivor")
    core.delete_namespace("lab")
    with pytest.raises(ApiException) as caught:
        core.read_namespace("lab")
    assert caught.value.status == 404
    assert (
        co.list_cluster_custom_object("metal3.io", "v1alpha1", "baremetalhosts")["items"][0][
            "metadata"
        ]["name"]
        == "survivor"
    )


def test_namespace_with_finalized_object_stays_terminating(
    api_client: ApiClient, co: Custom
) -> None:
    core = CoreV1Api(api_client)
    core.create_namespace(V1Namespace(metadata=meta("lab")))
    co.create_namespaced_custom_object(
        "metal3.io",
        "v1alpha1",
        "lab",
        "baremetalhosts",
        {
            "apiVersion": "metal3.io/v1alpha1",
            "kind": "BareMetalHost",
            "metadata": {"name": "h", "finalizers": ["a/b"]},
        },
    )
    core.delete_namespace("lab")
    status = core.read_namespace("lab").status
    assert status is not None and status.phase == "Terminating"
    with pytest.raises(ApiException) as caught:
        core.create_namespaced_config_map("lab", V1ConfigMap(metadata=meta("x")))
    assert caught.value.status == 403
    co.patch_namespaced_custom_object(
        "metal3.io", "v1alpha1", "lab", "baremetalhosts", "h", {"metadata": {"finalizers": None}}
    )
    assert [n.metadata.name for n in core.list_namespace().items if n.metadata] == [
        "default",
        "kube-public",
        "kube-system",
    ]


def test_core_delete_answers_success_status(api_client: ApiClient) -> None:
    core = CoreV1Api(api_client)
    core.create_namespaced_config_map("default", V1ConfigMap(metadata=meta("x")))
    answer = core.delete_namespaced_config_map("x", "default")
    assert isinstance(answer, dict)
    assert (answer["status"], answer["details"]["name"]) == ("Success", "x")


def test_crd_deletion_deletes_objects_and_stops_serving(sandbox: SandboxServer, co: Custom) -> None:
    create_host(co, "h1")
    ApiextensionsV1Api(co.api_client).delete_custom_resource_definition("baremetalhosts.metal3.io")
    with pytest.raises(ApiException) as caught:
        get_host(co, "h1")
    assert caught.value.status == 404
    assert sandbox.registry.lookup("metal3.io", "v1alpha1", "baremetalhosts") is None
    assert sandbox.store.listing(("metal3.io", "baremetalhosts"), None) == []


@pytest.mark.parametrize(
    ("policy", "owners", "survives", "left"),
    [
        pytest.param("Background", ["one"], False, [], id="background-only-owner-gone"),
        pytest.param("Background", ["one", "two"], True, ["two"], id="background-strips-dangling"),
        pytest.param("Foreground", ["one"], False, [], id="foreground-deletes-dependent"),
        pytest.param("Foreground", ["one", "two"], True, ["two"],
                     id="foreground-strips-rather-than-deletes"),
        pytest.param("Orphan", ["one", "two"], True, ["two"], id="orphan-drops-the-reference"),
    ],
)  # fmt: skip
def test_gc_as_kubernetes_attempt_to_delete_item(
    co: Custom, policy: str, owners: list[str], survives: bool, left: list[str]
) -> None:
    """kubernetes `pkg/controller/garbagecollector/garbagecollector.go` `attemptToDeleteItem`
    and `classifyReferences`: a dependent with a live ("solid") owner is never deleted; its
    references to absent (dangling) owners and to owners deleted in foreground (waiting for
    dependents) are stripped. Only a dependent with no live owner is deleted."""
    found = {name: create_host(co, name) for name in ("one", "two")}
    refs = [_owner_ref(found[name]) for name in owners]
    create_host(co, "child", metadata={"name": "child", "ownerReferences": refs})
    co.delete_namespaced_custom_object(*BMH, "one", propagation_policy=policy)
    assert not _exists(co, "one")  # a foreground owner goes once no dependent is left
    assert _exists(co, "child") is survives
    if survives:
        refs_left = get_host(co, "child")["metadata"].get("ownerReferences") or []
        assert [r["name"] for r in refs_left] == left


def test_foreground_cascades_in_foreground_to_grandchildren(co: Custom) -> None:
    """`attemptToDeleteItem`: a dependent of a waiting owner that has dependents itself is
    deleted in foreground too, so the top owner goes last."""
    top = create_host(co, "top")
    child = create_host(co, "child", metadata={"name": "child", "ownerReferences": [
        _owner_ref(top)]})  # fmt: skip
    create_host(co, "leaf", metadata={"name": "leaf", "finalizers": ["a/b"],
                                      "ownerReferences": [_owner_ref(child)]})  # fmt: skip
    co.delete_namespaced_custom_object(*BMH, "top", propagation_policy="Foreground")
    assert get_host(co, "child")["metadata"]["finalizers"] == ["foregroundDeletion"]
    assert _exists(co, "top") and get_host(co, "leaf")["metadata"]["deletionTimestamp"]
    co.patch_namespaced_custom_object(*BMH, "leaf", {"metadata": {"finalizers": None}})
    assert not any(_exists(co, n) for n in ("leaf", "child", "top"))


@pytest.mark.parametrize(
    ("owners", "finalizers", "survives", "left"),
    [
        pytest.param(["gone"], [], False, [], id="only-owner-gone-deleted"),
        pytest.param(["gone"], ["a/b"], True, ["gone"], id="finalizer-holds-it-terminating"),
        pytest.param(["gone", "live"], [], True, ["live"], id="live-owner-keeps-it-stripped"),
        pytest.param(["live"], [], True, ["live"], id="live-owner-untouched"),
    ],
)  # fmt: skip
def test_an_object_created_after_its_owner_was_deleted_is_collected(
    co: Custom, owners: list[str], finalizers: list[str], survives: bool, left: list[str]
) -> None:
    """kubernetes `graph_builder.go` `processGraphChanges`: an object added with an owner
    that is not there gets it as a virtual node; `attemptToDeleteItem` finds it absent and
    the dependent, with no live owner (`classifyReferences`), is deleted (a finalizer holds it
    terminating); one with a live owner only loses the dangling reference."""
    found = {name: create_host(co, name) for name in ("gone", "live")}
    co.delete_namespaced_custom_object(*BMH, "gone")  # removed: its UID is absent now
    refs = [_owner_ref(found[name]) for name in owners]
    body = {"name": "late", "ownerReferences": refs, "finalizers": finalizers}
    created = create_host(co, "late", metadata=body)
    assert created["metadata"]["name"] == "late"  # the create itself succeeds, as with the GC
    assert _exists(co, "late") is survives
    if survives:
        kept = get_host(co, "late")["metadata"]
        assert [r["name"] for r in kept.get("ownerReferences") or []] == left
        assert bool(kept.get("deletionTimestamp")) is bool(finalizers)


def test_owners_given_by_an_update_are_judged_too(co: Custom) -> None:
    """An update that adds an owner that is gone is a graph change like a create."""
    gone = create_host(co, "gone")
    co.delete_namespaced_custom_object(*BMH, "gone")
    create_host(co, "late")
    patch = {"metadata": {"ownerReferences": [_owner_ref(gone)]}}
    co.patch_namespaced_custom_object(*BMH, "late", patch)
    assert not _exists(co, "late")
