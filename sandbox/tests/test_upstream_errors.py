"""Errors as a kube-apiserver answers them, so tests here fail where a cluster would.

Covers: strategic merge patch on a custom resource (415 naming the accepted patch types),
DELETE with dryRun in the query or the DeleteOptions body (nothing deleted, namespaces
included), bad query integers (400) and a bad watch resourceVersion (422) answered before any
stream, label keys and values and object names refused with upstream's messages, and a watch
whose object stops matching its label selector getting DELETED with the object as it matched.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from kubernetes.client import ApiClient, ApiException, CoreV1Api, V1DeleteOptions, V1Namespace

from dhcpless_sandbox.apiserver.server import SandboxServer

from .helpers import (
    BMH,
    JSON,
    Custom,
    create_host,
    get_host,
    host,
    meta,
    raw_request,
    status_of,
    watch_events,
)

HOSTS = "/apis/metal3.io/v1alpha1/namespaces/default/baremetalhosts"


@pytest.fixture
def co(api_client: ApiClient) -> Custom:
    return Custom(api_client)


def test_strategic_merge_on_a_custom_resource_is_415(sandbox: SandboxServer, co: Custom) -> None:
    before = create_host(co)
    body = json.dumps({"spec": {"online": False}}).encode()
    kind = "application/strategic-merge-patch+json"
    code, _, status = raw_request(sandbox, "PATCH", f"{HOSTS}/h1", body, **{"Content-Type": kind})
    assert (code, status["reason"]) == (415, "UnsupportedMediaType")
    assert status["message"] == (
        "the body of the request was in an unknown format - accepted media types include: "
        "application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml"
    )
    assert get_host(co) == before


@pytest.mark.parametrize(
    "how",
    [
        pytest.param({"dry_run": "All"}, id="query"),
        pytest.param({"body": V1DeleteOptions(dry_run=["All"])}, id="delete-options-body"),
    ],
)
def test_delete_dry_run_deletes_nothing(api_client: ApiClient, how: dict[str, Any]) -> None:
    core = CoreV1Api(api_client)
    core.create_namespace(V1Namespace(metadata=meta("site")))
    core.delete_namespace("site", **how)
    answer: Any = core.read_namespace("site", _preload_content=False)
    namespace: JSON = json.loads(answer.data)
    assert namespace["status"]["phase"] == "Active"
    assert "deletionTimestamp" not in namespace["metadata"]


def test_delete_with_an_unknown_dry_run_value_is_400(api_client: ApiClient, co: Custom) -> None:
    create_host(co)
    with pytest.raises(ApiException) as caught:
        co.delete_namespaced_custom_object(*BMH, "h1", body={"dryRun": ["Some"]})
    assert caught.value.status == 400
    assert status_of(caught.value)["message"] == (
        'dryRun: Unsupported value: "Some": supported values: "All"'
    )
    assert get_host(co)["metadata"]["name"] == "h1"


@pytest.mark.parametrize(
    ("query", "code", "message"),
    [
        pytest.param(
            "?limit=abc", 400, 'strconv.ParseInt: parsing "abc": invalid syntax', id="limit"
        ),
        pytest.param(
            "?watch=true&timeoutSeconds=soon",
            400,
            'strconv.ParseInt: parsing "soon": invalid syntax',
            id="watch-timeout",
        ),
        pytest.param(
            "?watch=true&resourceVersion=abc",
            422,
            'baremetalhosts.metal3.io "" is invalid: resourceVersion: Invalid value: "abc": '
            'strconv.ParseUint: parsing "abc": invalid syntax',
            id="watch-resource-version",
        ),
    ],
)
def test_bad_query_parameters_fail_before_any_stream(
    sandbox: SandboxServer, query: str, code: int, message: str
) -> None:
    answer, chunked, status = raw_request(sandbox, "GET", HOSTS + query)
    assert (answer, chunked, status["code"], status["message"]) == (code, None, code, message)


LONG = "x" * 64


@pytest.mark.parametrize(
    ("metadata", "message"),
    [
        pytest.param(
            {"name": "h1", "labels": {"site": LONG}},
            f'BareMetalHost.metal3.io "h1" is invalid: metadata.labels: Invalid value: "{LONG}": '
            "must be no more than 63 bytes",
            id="label-value-too-long",
        ),
        pytest.param(
            {"name": "h1", "labels": {"bad key": "v"}},
            'BareMetalHost.metal3.io "h1" is invalid: metadata.labels: Invalid value: "bad key": '
            "name part must consist of alphanumeric characters, '-', '_' or '.', and must start "
            "and end with an alphanumeric character (e.g. 'MyName' or 'my.name' or '123-abc', "
            "regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
            id="label-key-with-space",
        ),
        pytest.param(
            {"name": "Node_0"},
            'BareMetalHost.metal3.io "Node_0" is invalid: metadata.name: Invalid value: '
            '"Node_0": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric '
            "characters, '-' or '.', and must start and end with an alphanumeric character "
            "(e.g. 'example.com', regex used for validation is "
            "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
            id="name-not-a-subdomain",
        ),
    ],
)
def test_bad_names_and_labels_are_refused(co: Custom, metadata: JSON, message: str) -> None:
    with pytest.raises(ApiException) as caught:
        co.create_namespaced_custom_object(*BMH, {**host(), "metadata": metadata})
    status = status_of(caught.value)
    assert (caught.value.status, status["reason"], status["message"]) == (422, "Invalid", message)
    assert co.list_namespaced_custom_object(*BMH)["items"] == []


def test_label_update_over_63_characters_is_refused(co: Custom) -> None:
    before = create_host(co)
    with pytest.raises(ApiException) as caught:
        co.patch_namespaced_custom_object(*BMH, "h1", {"metadata": {"labels": {"a": LONG}}})
    assert caught.value.status == 422
    assert get_host(co) == before


def test_watch_sends_deleted_with_the_object_as_it_matched(co: Custom) -> None:
    create_host(co, metadata={"name": "h1", "labels": {"env": "prod"}})
    rv = co.list_namespaced_custom_object(*BMH)["metadata"]["resourceVersion"]
    changed = co.patch_namespaced_custom_object(
        *BMH, "h1", {"metadata": {"labels": {"env": "dev"}}}
    )
    events = watch_events(
        co.list_namespaced_custom_object,
        *BMH,
        resource_version=rv,
        label_selector="env=prod",
        timeout_seconds=1,
    )
    assert [e["type"] for e in events] == ["DELETED"]
    gone = events[0]["object"]["metadata"]
    assert gone["labels"] == {"env": "prod"}
    assert gone["resourceVersion"] == changed["metadata"]["resourceVersion"]
