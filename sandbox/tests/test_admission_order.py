"""Admission as the real API server runs it, case by case (issue 25, item 8).

* A BareMetalHost may be created without `spec` (the CRD does not require it): the CEL of our
  policies reads it with `object.?spec.?…`, since `object.spec.?…` is an error on a missing
  `spec` (`object` is dynamic: a missing key is an error) and `failurePolicy: Fail` then
  refuses the create.
* `metadata.annotations: null` (and any null metadata field) is coerced away before admission
  (apiextensions-apiserver `customresource_handler.go` runs `schema/objectmeta/coerce.go`
  `Coerce`; a built-in's Go decoding drops it too), so a policy reading the annotations
  sees none, and nothing stores a null.
* On create, managedFields are recorded before mutating admission (k8s.io/apiserver
  `handlers/create.go`, `FieldManager.UpdateNoErrors` before `Admit`): the pause our mutating
  policy adds belongs to no manager, so a later apply without it does not remove it.
* `generateName` is resolved after mutating admission (`rest.BeforeCreate` inside
  `Store.Create`), before validating admission: a mutating policy sees no name, a validating
  one sees the generated name.
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from kubernetes.client import ApiException

from dhcpless import keys
from dhcpless_sandbox.apiserver.server import SandboxServer
from tests.support.waits import seconds

from .helpers import status_of
from .test_admission_policies import IN_SCOPE, MUTATING, ROOT, VALIDATING, World, _load, _policy

JSON = dict[str, Any]
KEEP_PAUSE = ROOT / "deploy" / "admission" / "keep-pause" / "keep-pause-policy.yaml"
OURS = {keys.PAUSED_ANNOTATION: keys.PREPROVISIONING_PAUSE}


@pytest.fixture
def world(sandbox: SandboxServer) -> Iterator[World]:
    found = World(sandbox)
    yield found
    found.client.close()


def _create(world: World, body: JSON, namespace: str = IN_SCOPE) -> JSON:
    base = {"apiVersion": f"{keys.BMO_GROUP}/{keys.BMO_VERSION}", "kind": "BareMetalHost"}
    created: JSON = world.custom.create_namespaced_custom_object(
        keys.BMO_GROUP, keys.BMO_VERSION, namespace, "baremetalhosts", {**base, **body}
    )
    return created


HOST = {"apiVersion": f"{keys.BMO_GROUP}/{keys.BMO_VERSION}", "kind": "BareMetalHost"}
HOSTS = f"/apis/{keys.BMO_GROUP}/{keys.BMO_VERSION}/namespaces/{IN_SCOPE}/baremetalhosts"


def _post(sandbox: SandboxServer, path: str, body: JSON) -> JSON:
    """A create with the body exactly as given (the client would drop its nulls)."""
    request = urllib.request.Request(
        sandbox.url + path, json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=seconds(10)) as answer:
        made: JSON = json.loads(answer.read())
    return made


def _annotations(host: JSON) -> JSON:
    found: JSON = host["metadata"].get("annotations") or {}
    return found


@pytest.mark.parametrize(
    ("policies", "meta", "paused"),
    [
        pytest.param((MUTATING,), {"name": "h1"}, True, id="mutating-pauses-a-host-without-spec"),
        pytest.param(
            (VALIDATING,), {"name": "h1", "annotations": OURS}, True, id="validating-admits-it"
        ),
        pytest.param(
            (MUTATING, VALIDATING), {"name": "h1"}, True, id="both-installed-paused-then-admitted"
        ),
    ],
)
def test_a_host_without_spec_is_admitted(
    world: World, policies: tuple[Any, ...], meta: JSON, paused: bool
) -> None:
    for path in policies:
        world.apply(*_load(path))
    host = _create(world, {"metadata": meta})
    assert "spec" not in host or host["spec"] == {}
    assert (_annotations(host).get(keys.PAUSED_ANNOTATION) == keys.PREPROVISIONING_PAUSE) is paused


def test_validating_still_refuses_an_unpaused_host_without_spec(world: World) -> None:
    world.apply(*_load(VALIDATING))
    with pytest.raises(ApiException) as caught:
        _create(world, {"metadata": {"name": "h1"}})
    body = status_of(caught.value)
    assert (caught.value.status, body["reason"]) == (422, "Invalid")
    assert "must be created paused" in body["message"]


def test_keep_pause_judges_a_host_without_spec_by_its_rule(world: World) -> None:
    """Dropping our pause from a host without spec is refused by the policy's own message
    (before: a CEL error on `object.spec`, refused by `failurePolicy: Fail`)."""
    _create(world, {"metadata": {"name": "h1", "annotations": OURS}})
    world.apply(*_load(KEEP_PAUSE))
    with pytest.raises(ApiException) as caught:
        world.patch_host(
            IN_SCOPE, "h1", {"metadata": {"annotations": {keys.PAUSED_ANNOTATION: None}}}
        )
    body = status_of(caught.value)
    assert body["reason"] == "Forbidden", body["message"]
    assert "stays until metal3-dhcpless has written" in body["message"]


@pytest.mark.parametrize(
    ("kind", "field"),
    [
        pytest.param("BareMetalHost", "annotations", id="custom-resource-annotations"),
        pytest.param("BareMetalHost", "labels", id="custom-resource-labels"),
        pytest.param("ConfigMap", "annotations", id="built-in-annotations"),
        pytest.param("ConfigMap", "finalizers", id="built-in-finalizers"),
    ],
)
def test_null_metadata_is_coerced_away(
    world: World, sandbox: SandboxServer, kind: str, field: str
) -> None:
    meta = {"name": "h1", field: None}
    if kind == "ConfigMap":
        body = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": meta}
        made = _post(sandbox, f"/api/v1/namespaces/{IN_SCOPE}/configmaps", body)
    else:
        body = {**HOST, "metadata": meta, "spec": {"online": True}}
        made = _post(sandbox, HOSTS, body)
    assert field not in made["metadata"]
    managed = [
        e["fieldsV1"].get("f:metadata", {}) for e in made["metadata"].get("managedFields", [])
    ]
    assert all(f"f:{field}" not in m for m in managed)


def test_a_null_annotations_host_reaches_the_policy_as_without_annotations(
    world: World, sandbox: SandboxServer
) -> None:
    """The policy's `object.metadata.?annotations` meets no null (before: a CEL error)."""
    world.apply(*_load(MUTATING))
    body = {**HOST, "metadata": {"name": "h1", "annotations": None}, "spec": {"online": True}}
    assert _annotations(_post(sandbox, HOSTS, body)) == OURS


def _owned(host: JSON, manager: str) -> JSON:
    [entry] = [e for e in host["metadata"]["managedFields"] if e["manager"] == manager]
    found: JSON = entry["fieldsV1"]
    return found


def test_what_a_mutating_policy_adds_on_create_belongs_to_no_manager(
    world: World, sandbox: SandboxServer
) -> None:
    world.apply(*_load(MUTATING))
    body = {**HOST, "metadata": {"name": "h1", "labels": {"a": "b"}}, "spec": {"online": True}}
    made = _post(sandbox, HOSTS + "?fieldManager=gitops", body)
    assert _annotations(made) == OURS  # the policy did add the pause
    owned = _owned(made, "gitops")
    assert owned["f:metadata"] == {"f:labels": {"f:a": {}}}  # what was sent, not the pause
    assert "f:online" in owned["f:spec"]


NAME_SEEN = (
    "Object{metadata: Object.metadata{annotations: "
    "{'seen-name': object.metadata.?name.orValue('')}}}"
)


@pytest.mark.parametrize(
    ("meta", "seen_by_mutation"),
    [
        pytest.param({"generateName": "worker-"}, "", id="generate-name-unresolved-in-mutation"),
        pytest.param({"name": "worker-x"}, "worker-x", id="a-given-name-is-seen"),
    ],
)
def test_generate_name_is_resolved_after_mutating_admission(
    world: World, meta: JSON, seen_by_mutation: str
) -> None:
    mutation = {"patchType": "ApplyConfiguration", "applyConfiguration": {"expression": NAME_SEEN}}
    world.apply(*_policy("MutatingAdmissionPolicy", {"mutations": [mutation]}, name="m"))
    named = {"validations": [{"expression": "object.metadata.name.startsWith('worker-')"}]}
    world.apply(*_policy("ValidatingAdmissionPolicy", named, name="v"))
    host = _create(world, {"metadata": meta, "spec": {"online": True}})
    assert _annotations(host)["seen-name"] == seen_by_mutation
    assert host["metadata"]["name"].startswith("worker-")
    assert len(host["metadata"]["name"]) == len("worker-") + (5 if "generateName" in meta else 1)
