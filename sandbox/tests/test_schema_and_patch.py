"""Structural schemas of the UPSTREAM Metal3 CRDs, and the PATCH flavours.

Covers: 422 Invalid naming the field for type, required, enum, pattern, min/max and
maxItems violations; unknown fields pruned (Warn) or rejected (Strict); API-server defaults
(`mtu: 1500` on v1beta2 Metal3DataTemplate links); merge patch `null` deletes; JSON patch ops
and a failed `test` op answering 422 without changing anything; strategic merge on a core kind.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml
from kubernetes.client import ApiClient, ApiException, CoreV1Api, V1Secret

from dhcpless_sandbox.apiserver.server import SandboxServer

from .helpers import BMH, JSON, Custom, create_host, get_host, host, meta, status_of

M3DT = ("infrastructure.cluster.x-k8s.io", "v1beta2", "default", "metal3datatemplates")
POOLS = ("ipam.metal3.io", "v1alpha1", "default", "ippools")
DEFAULTED = {"automatedCleaningMode": "metadata"}
"""What the upstream BareMetalHost schema defaults in every spec."""


@pytest.fixture(scope="module")
def upstream_crds(shared_crds_dir: Path) -> list[JSON]:
    """Parsed once: the upstream YAML is large and PyYAML is slow."""
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    return [
        yaml.load(p.read_text(), Loader=loader)
        for p in sorted((shared_crds_dir / "metal3").glob("*.yaml"))
    ]


@pytest.fixture
def co(sandbox: SandboxServer, api_client: ApiClient, upstream_crds: list[JSON]) -> Custom:
    """The sandbox with the upstream CRDs installed over our own."""
    for crd in upstream_crds:
        sandbox.apply_crd(copy.deepcopy(crd))
    return Custom(api_client)


def _rejected(co: Custom, group: tuple[str, ...], body: JSON) -> JSON:
    with pytest.raises(ApiException) as caught:
        co.create_namespaced_custom_object(*group, body)
    return status_of(caught.value)


@pytest.mark.parametrize(
    ("spec", "field", "message"),
    [
        pytest.param(
            {"online": "string"},
            "spec.online",
            'spec.online: Invalid value: "string": spec.online in body must be of type '
            'boolean: "string"',
            id="type",
        ),
        pytest.param(
            {"online": True, "bmc": {"address": "x"}},
            "spec.bmc.credentialsName",
            "spec.bmc.credentialsName: Required value",
            id="required",
        ),
        pytest.param(
            {"online": True, "bootMode": "floppy"},
            "spec.bootMode",
            'spec.bootMode: Unsupported value: "floppy"',
            id="enum",
        ),
        pytest.param(
            {"online": True, "automatedCleaningMode": "sometimes"},
            "spec.automatedCleaningMode",
            "Unsupported value",
            id="enum-2",
        ),
    ],
)
def test_baremetalhost_validation_names_the_field(
    co: Custom, spec: JSON, field: str, message: str
) -> None:
    status = _rejected(co, BMH, host("bad", spec=spec))
    assert (status["code"], status["reason"]) == (422, "Invalid")
    assert status["message"].startswith('BareMetalHost.metal3.io "bad" is invalid: ')
    assert message in status["message"]
    assert status["details"]["causes"][0]["field"] == field
    assert (status["details"]["kind"], status["details"]["group"]) == ("BareMetalHost", "metal3.io")


def _pool(**spec: Any) -> JSON:
    return {
        "apiVersion": "ipam.metal3.io/v1alpha1",
        "kind": "IPPool",
        "metadata": {"name": "p"},
        "spec": {"namePrefix": "p", **spec},
    }


@pytest.mark.parametrize(
    ("spec", "field"),
    [
        pytest.param({"namePrefix": ""}, "spec.namePrefix", id="minLength"),
        pytest.param({"prefix": "24"}, "spec.prefix", id="integer-type"),
        pytest.param({"pools": "x"}, "spec.pools", id="array-type"),
    ],
)
def test_ippool_validation(co: Custom, spec: JSON, field: str) -> None:
    status = _rejected(co, POOLS, _pool(**spec))
    assert field in [c["field"] for c in status["details"]["causes"]]


def test_several_errors_are_listed_together(co: Custom) -> None:
    status = _rejected(co, BMH, host("bad", spec={"online": 1, "bootMode": "x"}))
    assert status["message"].startswith('BareMetalHost.metal3.io "bad" is invalid: [')
    assert len(status["details"]["causes"]) == 2


def _template(**link: Any) -> JSON:
    ethernet = {"type": "phy", "id": "eth0", "macAddress": {"string": "00:11:22:33:44:55"}, **link}
    return {
        "apiVersion": "infrastructure.cluster.x-k8s.io/v1beta2",
        "kind": "Metal3DataTemplate",
        "metadata": {"name": "t1"},
        "spec": {"clusterName": "c", "networkData": {"links": {"ethernets": [ethernet]}}},
    }


def test_defaults_are_applied(co: Custom) -> None:
    created = co.create_namespaced_custom_object(*M3DT, _template())
    assert created["spec"]["networkData"]["links"]["ethernets"][0]["mtu"] == 1500
    explicit = co.patch_namespaced_custom_object(*M3DT, "t1", _template(mtu=9000))
    assert explicit["spec"]["networkData"]["links"]["ethernets"][0]["mtu"] == 9000


def test_unknown_fields_are_pruned_with_a_warning(co: Custom) -> None:
    created = create_host(co, spec={"online": True, "bogus": 1}, extra={"x": 1})
    assert created["spec"] == {"online": True, **DEFAULTED} and "extra" not in created


def test_strict_field_validation_rejects_unknown_fields(co: Custom) -> None:
    with pytest.raises(ApiException) as caught:
        co.create_namespaced_custom_object(
            *BMH, host(spec={"online": True, "bogus": 1}), field_validation="Strict"
        )
    assert caught.value.status == 400
    assert 'strict decoding error: unknown field "spec.bogus"' in status_of(caught.value)["message"]


def test_merge_patch_null_deletes(co: Custom) -> None:
    create_host(
        co,
        metadata={"name": "h1", "labels": {"a": "1", "b": "2"}},
        spec={"online": True, "description": "x"},
    )
    patched = co.patch_namespaced_custom_object(
        *BMH, "h1", {"metadata": {"labels": {"a": None}}, "spec": {"description": None}}
    )
    assert patched["metadata"]["labels"] == {"b": "2"}
    assert patched["spec"] == {"online": True, **DEFAULTED}


@pytest.mark.parametrize(
    ("ops", "spec"),
    [
        pytest.param(
            [{"op": "add", "path": "/spec/description", "value": "d"}],
            {"online": True, "description": "d"},
            id="add",
        ),
        pytest.param(
            [{"op": "remove", "path": "/spec/description"}], {"online": True}, id="remove"
        ),
        pytest.param(
            [
                {"op": "test", "path": "/spec/online", "value": True},
                {"op": "replace", "path": "/spec/online", "value": False},
            ],
            {"online": False},
            id="test-then-replace",
        ),
        pytest.param(
            [{"op": "copy", "from": "/metadata/name", "path": "/spec/description"}],
            {"online": True, "description": "h1"},
            id="copy",
        ),
        pytest.param(
            [{"op": "move", "from": "/spec/description", "path": "/spec/x"}],
            {"online": True},
            id="move-then-pruned",
        ),
    ],
)
def test_json_patch_ops(co: Custom, ops: list[JSON], spec: JSON) -> None:
    create_host(
        co,
        spec={
            "online": True,
            **({} if ops[0]["op"] in ("add", "copy", "test") else {"description": "d"}),
        },
    )
    patched = co.patch_namespaced_custom_object(
        *BMH, "h1", ops, _content_type="application/json-patch+json"
    )
    assert patched["spec"] == {**spec, **DEFAULTED}


def test_failed_json_patch_test_is_422_and_changes_nothing(co: Custom) -> None:
    before = create_host(co)
    ops = [
        {"op": "replace", "path": "/spec/online", "value": False},
        {"op": "test", "path": "/spec/online", "value": True},
    ]
    with pytest.raises(ApiException) as caught:
        co.patch_namespaced_custom_object(
            *BMH, "h1", ops, _content_type="application/json-patch+json"
        )
    status = status_of(caught.value)
    assert (status["code"], status["reason"]) == (422, "Invalid")
    assert status["details"]["causes"][0]["message"] == (
        "testing value /spec/online failed: test failed"
    )
    assert get_host(co) == before


def test_strategic_merge_on_core_kind(api_client: ApiClient) -> None:
    core = CoreV1Api(api_client)
    refs = [{"apiVersion": "v1", "kind": "ConfigMap", "name": n, "uid": n} for n in ("a", "b")]
    core.create_namespaced_secret(
        "default",
        V1Secret(metadata=meta("s", finalizers=["x/one"], owner_references=refs)),
    )
    patch = {
        "metadata": {
            "finalizers": ["x/two"],
            "ownerReferences": [
                {"apiVersion": "v1", "kind": "ConfigMap", "name": "c", "uid": "c"},
                {"uid": "a", "$patch": "delete"},
            ],
        }
    }
    patched = core.patch_namespaced_secret(
        "s", "default", patch, _content_type="application/strategic-merge-patch+json"
    )
    assert patched.metadata is not None
    assert patched.metadata.finalizers == ["x/one", "x/two"]
    assert [r.uid for r in patched.metadata.owner_references or []] == ["b", "c"]
