"""Writes through the official client: optimistic concurrency, names, generation, status.

Covers: 409 Conflict on a stale resourceVersion, 409 AlreadyExists, `generateName`, PUT without
resourceVersion (422 for custom resources), the generation rules (bumped only by changes
outside metadata and status), no-op writes keep the resourceVersion, the status subresource
separation, Secret `stringData`, creating in a missing namespace, dry-run.
"""

from __future__ import annotations

from typing import Any

import pytest
from kubernetes.client import ApiClient, ApiException, CoreV1Api, V1Secret

from dhcpless_sandbox.apiserver.server import SandboxServer

from .helpers import BMH, JSON, Custom, create_host, get_host, host, meta, status_of


@pytest.fixture
def co(api_client: ApiClient) -> Custom:
    return Custom(api_client)


def test_stale_resource_version_is_a_conflict(co: Custom) -> None:
    first = create_host(co)
    co.patch_namespaced_custom_object(*BMH, "h1", {"spec": {"online": False}})
    stale = {**first, "spec": {"online": True}}
    with pytest.raises(ApiException) as caught:
        co.replace_namespaced_custom_object(*BMH, "h1", stale)
    status = status_of(caught.value)
    assert (caught.value.status, status["reason"]) == (409, "Conflict")
    assert status["message"] == (
        'Operation cannot be fulfilled on baremetalhosts.metal3.io "h1": the object has been '
        "modified; please apply your changes to the latest version and try again"
    )
    assert get_host(co)["spec"]["online"] is False


def test_update_with_current_resource_version_succeeds(co: Custom) -> None:
    current = create_host(co)
    updated = co.replace_namespaced_custom_object(
        *BMH, "h1", {**current, "spec": {"online": False}}
    )
    assert int(updated["metadata"]["resourceVersion"]) > int(current["metadata"]["resourceVersion"])


def test_put_without_resource_version_is_invalid_for_custom_resources(co: Custom) -> None:
    create_host(co)
    with pytest.raises(ApiException) as caught:
        co.replace_namespaced_custom_object(*BMH, "h1", host("h1"))
    assert caught.value.status == 422
    assert status_of(caught.value)["details"]["causes"][0]["field"] == "metadata.resourceVersion"


def test_create_existing_name_is_already_exists(co: Custom) -> None:
    create_host(co)
    with pytest.raises(ApiException) as caught:
        create_host(co)
    assert status_of(caught.value) == {
        "kind": "Status",
        "apiVersion": "v1",
        "metadata": {},
        "status": "Failure",
        "message": 'baremetalhosts.metal3.io "h1" already exists',
        "reason": "AlreadyExists",
        "code": 409,
        "details": {"name": "h1", "group": "metal3.io", "kind": "baremetalhosts"},
    }


def test_generate_name(co: Custom) -> None:
    body = {**host(""), "metadata": {"generateName": "worker-"}}
    names = {co.create_namespaced_custom_object(*BMH, body)["metadata"]["name"] for _ in range(3)}
    assert len(names) == 3
    assert all(n.startswith("worker-") and len(n) == len("worker-") + 5 for n in names)


def test_missing_name_is_invalid(co: Custom) -> None:
    with pytest.raises(ApiException) as caught:
        co.create_namespaced_custom_object(*BMH, {**host(""), "metadata": {}})
    assert caught.value.status == 422
    assert "name or generateName is required" in status_of(caught.value)["message"]


@pytest.mark.parametrize(
    ("patch", "generation"),
    [
        pytest.param({"spec": {"online": False}}, 2, id="spec-change-bumps"),
        pytest.param({"spec": {"online": True}}, 1, id="same-spec-no-bump"),
        pytest.param({"metadata": {"labels": {"a": "b"}}}, 1, id="label-no-bump"),
        pytest.param({"metadata": {"annotations": {"a": "b"}}}, 1, id="annotation-no-bump"),
        pytest.param({"metadata": {"finalizers": ["x/y"]}}, 1, id="finalizer-no-bump"),
        pytest.param({"status": {"operationalStatus": "OK"}}, 1, id="status-ignored-no-bump"),
    ],
)
def test_generation_rules(co: Custom, patch: JSON, generation: int) -> None:
    create_host(co)
    patched = co.patch_namespaced_custom_object(*BMH, "h1", patch)
    assert patched["metadata"]["generation"] == generation


def test_noop_patch_keeps_resource_version(co: Custom) -> None:
    created = create_host(co)
    same = co.patch_namespaced_custom_object(*BMH, "h1", {"spec": {"online": True}})
    assert same["metadata"]["resourceVersion"] == created["metadata"]["resourceVersion"]


GADGETS = """\
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: gadgets, singular: gadget, kind: Gadget}
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec: {type: object, x-kubernetes-preserve-unknown-fields: true}
            status: {type: object, x-kubernetes-preserve-unknown-fields: true}
"""


def test_generation_counts_status_without_status_subresource(
    sandbox: SandboxServer, co: Custom
) -> None:
    sandbox.apply_crd_text(GADGETS)
    group = ("example.com", "v1", "default", "gadgets")
    body = {
        "apiVersion": "example.com/v1",
        "kind": "Gadget",
        "metadata": {"name": "m"},
        "spec": {"a": 1},
        "status": {"x": 1},
    }
    assert co.create_namespaced_custom_object(*group, body)["status"] == {"x": 1}
    patched = co.patch_namespaced_custom_object(*group, "m", {"status": {"x": 2}})
    assert (patched["status"], patched["metadata"]["generation"]) == ({"x": 2}, 2)


def test_status_subresource_separation(co: Custom) -> None:
    created = create_host(co, status={"operationalStatus": "OK"})
    assert "status" not in created
    main = co.patch_namespaced_custom_object(*BMH, "h1", {"status": {"errorType": "x"}})
    assert "status" not in main
    status = co.patch_namespaced_custom_object_status(
        *BMH,
        "h1",
        {
            "spec": {"online": False},
            "metadata": {"labels": {"a": "b"}},
            "status": {"operationalStatus": "OK"},
        },
    )
    # errorCount and provisioningFailCount are defaulted by BMO's schema, as upstream.
    assert status["status"] == {
        "operationalStatus": "OK",
        "errorCount": 0,
        "provisioningFailCount": 0,
    }
    assert status["spec"]["online"] is True
    assert "labels" not in status["metadata"]
    replaced = co.replace_namespaced_custom_object(*BMH, "h1", {**status, "status": {}})
    assert replaced["status"] == status["status"]


def test_secret_string_data_and_no_generation(api_client: ApiClient) -> None:
    core = CoreV1Api(api_client)
    body = V1Secret(metadata=meta("s"), string_data={"networkData": "{}"})
    secret = core.create_namespaced_secret("default", body)
    assert secret.data == {"networkData": "e30="}
    assert secret.metadata is not None
    assert (secret.type, secret.metadata.generation) == ("Opaque", None)


def test_create_in_missing_namespace_is_not_found(co: Custom) -> None:
    with pytest.raises(ApiException) as caught:
        co.create_namespaced_custom_object(
            "metal3.io", "v1alpha1", "nope", "baremetalhosts", host()
        )
    assert status_of(caught.value)["message"] == 'namespaces "nope" not found'
    assert caught.value.status == 404


def test_dry_run_changes_nothing(co: Custom) -> None:
    co.create_namespaced_custom_object(*BMH, host(), dry_run="All")
    with pytest.raises(ApiException) as caught:
        get_host(co)
    assert caught.value.status == 404


@pytest.mark.parametrize(
    ("body", "code", "reason"),
    [
        pytest.param(
            {"apiVersion": "metal3.io/v1", "kind": "BareMetalHost", "metadata": {"name": "x"}},
            400,
            "BadRequest",
            id="wrong-apiversion",
        ),
        pytest.param(
            {"kind": "Secret", "metadata": {"name": "x"}}, 400, "BadRequest", id="wrong-kind"
        ),
        pytest.param({"metadata": {"name": "Upper_Case"}}, 422, "Invalid", id="bad-name"),
        pytest.param(
            {"metadata": {"name": "x", "labels": {"a": 1}}},
            400,
            "BadRequest",
            id="label-not-string",
        ),
    ],
)
def test_bad_bodies_are_rejected_and_change_nothing(
    co: Custom, body: dict[str, Any], code: int, reason: str
) -> None:
    with pytest.raises(ApiException) as caught:
        co.create_namespaced_custom_object(*BMH, body)
    assert (caught.value.status, status_of(caught.value)["reason"]) == (code, reason)
    assert co.list_namespaced_custom_object(*BMH[:3], BMH[3])["items"] == []
