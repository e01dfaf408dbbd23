"""The generic adapter (`kube.api.generic` over `kube.api.resources`), against the sandbox API.

Covers: every described resource maps a missing object to `Gone` (naming it) and `find` reads
that as None; a create / find / patch / delete round trip through the generic operations; the
URL paths per scope; an answer of the wrong shape is `InvalidInput`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from kubernetes import client as k8s

from dhcpless import errors, keys
from dhcpless.kube import Kube
from dhcpless.kube.api import resources as r
from dhcpless.models import IPClaim, Secret

NS = "default"


@pytest.fixture
def kube(api_client: k8s.ApiClient) -> Kube:
    return Kube(api_client)


RESOURCES = [pytest.param(res, id=f"{res.plural}.{res.group or 'core'}") for res in r.ALL]


@pytest.mark.parametrize("res", RESOURCES)
def test_a_missing_object_is_gone_for_every_resource(kube: Kube, res: r.Resource[Any]) -> None:
    with pytest.raises(errors.Gone) as gone:
        kube.get(res, NS, "absent")
    where = f"{NS}/absent" if res.namespaced else "absent"
    assert f"{res.label or res.kind} {where} not found" == str(gone.value)
    assert kube.find(res, NS, "absent") is None


@pytest.mark.parametrize(
    "find",
    [
        pytest.param(Kube.find_host, id="host"),
        pytest.param(Kube.find_claim, id="claim"),
    ],
)
def test_named_finders_answer_none_for_a_missing_object(
    kube: Kube, find: Callable[[Kube, str, str], object]
) -> None:
    assert find(kube, NS, "absent") is None


def claim() -> IPClaim:
    meta = {"name": "h-pool", "namespace": NS, "labels": {keys.HOST_LABEL: "h"}}
    return IPClaim.from_k8s({"metadata": meta, "spec": {"pool": {"name": "pool"}}})


def test_create_find_patch_delete_round_trip(kube: Kube) -> None:
    created = kube.create(r.IPCLAIMS, claim())
    assert kube.find(r.IPCLAIMS, NS, "h-pool") == created == kube.find_claim(NS, "h-pool")
    with pytest.raises(errors.AlreadyExists):
        kube.create(r.IPCLAIMS, claim())
    patched = kube.patch(r.IPCLAIMS, NS, "h-pool", {"metadata": {"labels": {"x": "y"}}})
    assert patched.metadata.labels["x"] == "y"
    assert [c.metadata.name for c in kube.list(r.IPCLAIMS, NS, "x=y")] == ["h-pool"]
    kube.delete(r.IPCLAIMS, NS, "h-pool")
    assert kube.find(r.IPCLAIMS, NS, "h-pool") is None


def test_a_failed_json_patch_test_is_a_precondition(kube: Kube) -> None:
    kube.create(r.IPCLAIMS, claim())
    stale = [{"op": "test", "path": "/metadata/labels/x", "value": "old"}]
    with pytest.raises(errors.Transient, match="changed since read"):
        kube.patch(r.IPCLAIMS, NS, "h-pool", stale)


def test_an_object_of_the_wrong_shape_is_invalid_input(kube: Kube) -> None:
    kube.create(r.SECRETS, Secret.model_validate({"metadata": {"name": "s", "namespace": NS}}))
    as_claim = r.Resource("IPClaim", "", "v1", "secrets", IPClaim.from_k8s)
    with pytest.raises(errors.InvalidInput, match="IPClaim"):
        kube.get(as_claim, NS, "s")


@pytest.mark.parametrize(
    ("res", "namespace", "named", "path"),
    [
        pytest.param(r.SECRETS, NS, True, "/api/v1/namespaces/{namespace}/secrets/{name}",
                     id="core-named"),
        pytest.param(r.HOSTS, None, False, "/apis/metal3.io/v1alpha1/baremetalhosts",
                     id="group-all-namespaces"),
        pytest.param(r.IPPOOLS, NS, False,
                     "/apis/ipam.metal3.io/v1alpha1/namespaces/{namespace}/ippools",
                     id="group-one-namespace"),
    ],
)  # fmt: skip
def test_paths(res: r.Resource[Any], namespace: str | None, named: bool, path: str) -> None:
    assert res.path(namespace, named) == path
