"""Server-side apply and managedFields through the official client (raw PATCH bodies).

Covers: apply creating (201) and updating, the Apply entry's FieldsV1, a field the applier drops
being removed, shared ownership of equal values, conflicts (409 naming fields and managers, the
object unchanged) and `force` moving ownership, non-apply writes taking the fields they change,
the PatchOptions rules (fieldManager required, force only with apply), and the merge by schema:
list-type map (merged by key), set (union), atomic lists and maps (replaced).
"""

from __future__ import annotations

import json
from typing import Any, cast

import pytest
from kubernetes.client import ApiClient, ApiException

from dhcpless_sandbox.apiserver.server import SandboxServer

from .helpers import BMH, JSON, Custom, get_host, raw_request, status_of

APPLY = "application/apply-patch+yaml"
WIDGETS = ("example.com", "v1", "default", "widgets")
WIDGET_CRD = """\
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget}
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
                ports:
                  type: array
                  x-kubernetes-list-type: map
                  x-kubernetes-list-map-keys: [name]
                  items:
                    type: object
                    properties: {name: {type: string}, port: {type: integer}}
                tags: {type: array, x-kubernetes-list-type: set, items: {type: string}}
                args: {type: array, items: {type: string}}
                selector:
                  type: object
                  x-kubernetes-map-type: atomic
                  additionalProperties: {type: string}
"""


@pytest.fixture
def co(sandbox: SandboxServer, api_client: ApiClient) -> Custom:
    sandbox.apply_crd_text(WIDGET_CRD)
    return Custom(api_client)


DEFAULTED = {"automatedCleaningMode": "metadata"}
"""What BMO's schema defaults in every host spec."""


def host(**spec: Any) -> JSON:
    return {
        "apiVersion": "metal3.io/v1alpha1",
        "kind": "BareMetalHost",
        "metadata": {"name": "h1"},
        "spec": spec,
    }


def apply(co: Custom, body: JSON, manager: str, force: bool = False, kind: Any = BMH) -> JSON:
    """An apply through the official client; read raw, as its model knows no 201 answer."""
    name = body["metadata"]["name"]
    extra = {"force": True} if force else {}
    answer: Any = co.patch_namespaced_custom_object(
        *kind,
        name,
        body,
        field_manager=manager,
        _content_type=APPLY,
        _preload_content=False,
        **extra,
    )
    return cast(JSON, json.loads(answer.data))


def owners(obj: JSON) -> dict[tuple[str, str], JSON]:
    return {(e["manager"], e["operation"]): e["fieldsV1"] for e in obj["metadata"]["managedFields"]}


def test_apply_creates_with_201(sandbox: SandboxServer, co: Custom) -> None:
    path = "/apis/metal3.io/v1alpha1/namespaces/default/baremetalhosts/h1?fieldManager=a"
    body = json.dumps(host(online=True)).encode()
    code, _, created = raw_request(sandbox, "PATCH", path, body, **{"Content-Type": APPLY})
    assert (code, created["spec"]) == (201, {"online": True, **DEFAULTED})
    again = raw_request(sandbox, "PATCH", path, body, **{"Content-Type": APPLY})
    assert again[0] == 200
    assert again[2]["metadata"]["resourceVersion"] == created["metadata"]["resourceVersion"]


def test_apply_creates_and_records_its_fields(co: Custom) -> None:
    created = apply(
        co, {**host(online=True), "metadata": {"name": "h1", "labels": {"a": "b"}}}, "a"
    )
    assert created["spec"] == {"online": True, **DEFAULTED}
    assert owners(created) == {
        ("a", "Apply"): {"f:metadata": {"f:labels": {"f:a": {}}}, "f:spec": {"f:online": {}}}
    }


def test_apply_removes_what_the_applier_no_longer_sets(co: Custom) -> None:
    apply(co, host(online=True, bootMode="UEFI"), "a")
    updated = apply(co, host(online=True), "a")
    assert updated["spec"] == {"online": True, **DEFAULTED}


def test_equal_values_are_shared_and_kept(co: Custom) -> None:
    apply(co, host(online=True, bootMode="UEFI"), "a")
    apply(co, host(bootMode="UEFI"), "b")
    kept = apply(co, host(online=True), "a")
    assert kept["spec"] == {"online": True, "bootMode": "UEFI", **DEFAULTED}
    assert set(owners(kept)) == {("a", "Apply"), ("b", "Apply")}


def test_conflict_is_409_naming_field_and_manager(co: Custom) -> None:
    apply(co, host(online=True, bootMode="UEFI"), "a")
    before = get_host(co)
    with pytest.raises(ApiException) as caught:
        apply(co, host(online=False, bootMode="legacy"), "b")
    status = status_of(caught.value)
    assert (caught.value.status, status["reason"]) == (409, "Conflict")
    assert status["message"] == (
        'Apply failed with 2 conflicts: conflicts with "a":\n- .spec.bootMode\n- .spec.online'
    )
    assert status["details"]["causes"] == [
        {"reason": "FieldManagerConflict", "message": 'conflict with "a"', "field": f}
        for f in (".spec.bootMode", ".spec.online")
    ]
    assert get_host(co) == before


def test_force_takes_the_fields_over(co: Custom) -> None:
    apply(co, host(online=True, bootMode="UEFI"), "a")
    forced = apply(co, host(online=False), "b", force=True)
    assert forced["spec"] == {"online": False, "bootMode": "UEFI", **DEFAULTED}
    fields = owners(forced)
    assert fields[("a", "Apply")] == {"f:spec": {"f:bootMode": {}}}
    assert fields[("b", "Apply")] == {"f:spec": {"f:online": {}}}


def test_an_update_takes_ownership_and_then_conflicts_with_apply(co: Custom) -> None:
    apply(co, host(online=True), "a")
    patched = co.patch_namespaced_custom_object(
        *BMH, "h1", {"spec": {"online": False}}, field_manager="editor"
    )
    entry = next(e for e in patched["metadata"]["managedFields"] if e["manager"] == "editor")
    assert (entry["operation"], entry["fieldsV1"]) == ("Update", {"f:spec": {"f:online": {}}})
    assert ("a", "Apply") not in owners(patched)
    with pytest.raises(ApiException) as caught:
        apply(co, host(online=True), "a")
    assert status_of(caught.value)["message"] == (
        'Apply failed with 1 conflict: conflict with "editor" using metal3.io/v1alpha1 at '
        f"{entry['time']}: .spec.online"
    )


@pytest.mark.parametrize(
    ("query", "content_type", "message"),
    [
        pytest.param(
            "",
            APPLY,
            'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required '
            "for apply patch",
            id="apply-without-manager",
        ),
        pytest.param(
            "?force=true",
            "application/merge-patch+json",
            'PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for '
            "non-apply patch",
            id="force-without-apply",
        ),
    ],
)
def test_patch_options_are_checked(
    sandbox: SandboxServer, co: Custom, query: str, content_type: str, message: str
) -> None:
    path = f"/apis/metal3.io/v1alpha1/namespaces/default/baremetalhosts/h1{query}"
    body = json.dumps(host(online=True)).encode()
    code, _, status = raw_request(sandbox, "PATCH", path, body, **{"Content-Type": content_type})
    assert (code, status["message"]) == (422, message)


def widget(**spec: Any) -> JSON:
    return {
        "apiVersion": "example.com/v1",
        "kind": "Widget",
        "metadata": {"name": "w"},
        "spec": spec,
    }


@pytest.mark.parametrize(
    ("first", "second", "merged"),
    [
        pytest.param(
            {"ports": [{"name": "http", "port": 80}, {"name": "ssh", "port": 22}]},
            {"ports": [{"name": "http", "port": 8080}, {"name": "dns", "port": 53}]},
            {
                "ports": [
                    {"name": "http", "port": 8080},
                    {"name": "ssh", "port": 22},
                    {"name": "dns", "port": 53},
                ]
            },
            id="list-map-merges-by-key",
        ),
        pytest.param(
            {"tags": ["a", "b"]}, {"tags": ["b", "c"]}, {"tags": ["a", "b", "c"]}, id="set"
        ),
        pytest.param({"args": ["x", "y"]}, {"args": ["z"]}, {"args": ["z"]}, id="atomic-list"),
        pytest.param(
            {"selector": {"a": "1", "b": "2"}},
            {"selector": {"c": "3"}},
            {"selector": {"c": "3"}},
            id="atomic-map",
        ),
    ],
)
def test_merge_follows_the_schema(co: Custom, first: JSON, second: JSON, merged: JSON) -> None:
    apply(co, widget(**first), "a", kind=WIDGETS)
    result = apply(co, widget(**second), "b", force=True, kind=WIDGETS)
    assert result["spec"] == merged


def test_list_map_items_are_owned_by_key(co: Custom) -> None:
    result = apply(co, widget(ports=[{"name": "http", "port": 80}]), "a", kind=WIDGETS)
    item = json.dumps({"name": "http"}, separators=(",", ":"))
    assert owners(result)[("a", "Apply")] == {
        "f:spec": {"f:ports": {f"k:{item}": {".": {}, "f:name": {}, "f:port": {}}}}
    }
