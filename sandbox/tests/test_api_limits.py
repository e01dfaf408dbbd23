"""The sandbox refuses the names, label values and label selectors a real API server refuses,
at the lengths our functions derive from a host (issue 14, finding 3).

Facts from k8s.io/apimachinery: object names are `IsDNS1123Subdomain` (253 characters), label
values `IsValidLabelValue` (63), and a LIST's label selector is parsed by `labels.Parse`, whose
`NewRequirement` validates every key and value (400 "unable to parse requirement"). A sandbox
that accepted more would let a test pass that fails on a cluster: the silent stall of finding 3
was a 64-character label value the sandbox let through.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, cast

import pytest
from kubernetes.client import ApiClient, ApiException, CoreV1Api, CustomObjectsApi

from dhcpless import keys

NS = "default"
Create = Callable[[ApiClient, str, dict[str, str]], Any]


def _secret(api: ApiClient, name: str, labels: dict[str, str]) -> Any:
    body = {"metadata": {"name": name, "labels": labels}}
    return CoreV1Api(api).create_namespaced_secret(NS, cast(Any, body))


def _event(api: ApiClient, name: str, labels: dict[str, str]) -> Any:
    meta = {"name": name, "labels": labels}
    body = {"metadata": meta, "involvedObject": {"kind": "Secret", "name": "x"}, "reason": "R"}
    return CoreV1Api(api).create_namespaced_event(NS, cast(Any, body))


def _ipclaim(api: ApiClient, name: str, labels: dict[str, str]) -> Any:
    body = {
        "apiVersion": f"{keys.IPAM_GROUP}/{keys.IPAM_VERSION}",
        "kind": "IPClaim",
        "metadata": {"name": name, "labels": labels},
        "spec": {"pool": {"name": "pool4"}},
    }
    custom = CustomObjectsApi(api)
    return custom.create_namespaced_custom_object(
        keys.IPAM_GROUP, keys.IPAM_VERSION, NS, "ipclaims", body
    )


KINDS = [
    pytest.param(_secret, id="Secret"),
    pytest.param(_event, id="Event"),
    pytest.param(_ipclaim, id="IPClaim"),
]


def _status(create: Callable[[], Any]) -> int:
    try:
        create()
    except ApiException as refused:
        return int(refused.status)
    return 201


@pytest.mark.parametrize(
    ("create", "length", "status"),
    [
        pytest.param(_secret, 253, 201, id="253-Secret"),
        pytest.param(_secret, 254, 422, id="254-Secret"),
        pytest.param(_ipclaim, 253, 201, id="253-IPClaim"),
        pytest.param(_ipclaim, 254, 422, id="254-IPClaim"),
        # core/v1 Events are exempt: k8s.io/kubernetes `pkg/apis/core/validation/events.go`
        # `ValidateEventCreate` skips ObjectMeta validation for that version (BMO's Event names,
        # `generateName: Registered-`, depend on it); events.k8s.io/v1 ones are checked.
        pytest.param(_event, 254, 201, id="254-Event"),
    ],
)
def test_object_names_above_253_are_refused(
    api_client: ApiClient, create: Create, length: int, status: int
) -> None:
    name = ("a" * 252 + "b")[: length - 1] + "z"
    assert _status(lambda: create(api_client, name, {})) == status


@pytest.mark.parametrize("create", KINDS)
@pytest.mark.parametrize(("length", "status"), [(63, 201), (64, 422)])
def test_label_values_above_63_are_refused(
    api_client: ApiClient, create: Create, length: int, status: int
) -> None:
    labels = {keys.HOST_LABEL: "h" * length}
    assert _status(lambda: create(api_client, f"labelled-{length}", labels)) == status


@pytest.mark.parametrize(
    ("selector", "message"),
    [
        pytest.param(f"{keys.HOST_LABEL}={'h' * 63}", None, id="value-63"),
        pytest.param(
            f"{keys.HOST_LABEL}={'h' * 64}",
            f"unable to parse requirement: values[0][{keys.HOST_LABEL}]: Invalid value: "
            f'"{"h" * 64}": must be no more than 63 bytes',
            id="value-64",
        ),
        pytest.param(f"a in ({'x' * 64})", "must be no more than 63 bytes", id="set-value-64"),
        pytest.param(f"{'k' * 64}=v", "name part must be no more than 63 bytes", id="key-64"),
    ],
)
def test_label_selectors_with_values_a_label_cannot_have_are_400(
    api_client: ApiClient, selector: str, message: str | None
) -> None:
    core = CoreV1Api(api_client)
    if message is None:
        assert core.list_namespaced_secret(NS, label_selector=selector).items == []
        return
    with pytest.raises(ApiException) as caught:
        core.list_namespaced_secret(NS, label_selector=selector)
    said = json.loads(caught.value.body or "{}")["message"]
    assert caught.value.status == 400 and message in said
