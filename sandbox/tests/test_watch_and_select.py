"""Lists and watches through the official client: selectors, pagination, watch semantics.

Covers: every label-selector operator, fieldSelector on metadata.name/namespace (and a 400 for
unsupported fields), limit/continue, watch ordering from a given resourceVersion, 410 Expired for
a compacted resourceVersion, synthetic ADDED events for a watch from "now", selector
transitions (ADDED/DELETED when an object starts or stops matching), timeoutSeconds.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
from kubernetes.client import ApiClient, ApiException

from dhcpless_sandbox.apiserver.server import SandboxServer
from tests.support.waits import seconds

from .helpers import BMH, Custom, create_host, host, status_of, watch_events

LABELS = {"a": {"env": "prod", "tier": "1"}, "b": {"env": "dev"}, "c": {}}


@pytest.fixture
def co(api_client: ApiClient) -> Custom:
    client = Custom(api_client)
    for name, labels in LABELS.items():
        client.create_namespaced_custom_object(
            *BMH, {**host(name), "metadata": {"name": name, "labels": labels}}
        )
    return client


def _names(co: Custom, **query: str) -> list[str]:
    items = co.list_namespaced_custom_object(*BMH, **query)["items"]
    return [i["metadata"]["name"] for i in items]


@pytest.mark.parametrize(
    ("selector", "expected"),
    [
        pytest.param("env=prod", ["a"], id="equals"),
        pytest.param("env==dev", ["b"], id="double-equals"),
        pytest.param("env!=prod", ["b", "c"], id="not-equals-includes-missing"),
        pytest.param("env in (prod,dev)", ["a", "b"], id="in"),
        pytest.param("env notin (prod)", ["b", "c"], id="notin-includes-missing"),
        pytest.param("tier", ["a"], id="exists"),
        pytest.param("!env", ["c"], id="does-not-exist"),
        pytest.param("env,tier=1", ["a"], id="and"),
        pytest.param("tier>0", ["a"], id="greater-than"),
        pytest.param("", ["a", "b", "c"], id="empty-matches-all"),
    ],
)
def test_label_selectors(co: Custom, selector: str, expected: list[str]) -> None:
    assert _names(co, label_selector=selector) == expected


@pytest.mark.parametrize(
    ("selector", "expected"),
    [
        pytest.param("metadata.name=b", ["b"], id="name"),
        pytest.param("metadata.name!=b", ["a", "c"], id="not-name"),
        pytest.param("metadata.namespace=default", ["a", "b", "c"], id="namespace"),
        pytest.param("metadata.namespace=other", [], id="other-namespace"),
    ],
)
def test_field_selectors(co: Custom, selector: str, expected: list[str]) -> None:
    assert _names(co, field_selector=selector) == expected


@pytest.mark.parametrize(
    "query",
    [
        pytest.param({"field_selector": "spec.online=true"}, id="unsupported-field"),
        pytest.param({"label_selector": "env in prod"}, id="bad-label-syntax"),
    ],
)
def test_bad_selectors_are_400(co: Custom, query: dict[str, str]) -> None:
    with pytest.raises(ApiException) as caught:
        co.list_namespaced_custom_object(*BMH, **query)
    assert (caught.value.status, status_of(caught.value)["reason"]) == (400, "BadRequest")


def test_limit_and_continue(co: Custom) -> None:
    first = co.list_namespaced_custom_object(*BMH, limit=2)
    assert [i["metadata"]["name"] for i in first["items"]] == ["a", "b"]
    assert first["metadata"]["remainingItemCount"] == 1
    rest = co.list_namespaced_custom_object(*BMH, limit=2, _continue=first["metadata"]["continue"])
    assert [i["metadata"]["name"] for i in rest["items"]] == ["c"]
    assert "continue" not in rest["metadata"]


def _events(co: Custom, **kw: object) -> list[tuple[str, str, str]]:
    events = watch_events(co.list_namespaced_custom_object, *BMH, **kw)
    return [
        (e["type"], e["object"]["metadata"]["name"], e["object"]["metadata"]["resourceVersion"])
        for e in events
    ]


def test_watch_from_resource_version_replays_in_order(co: Custom) -> None:
    rv = co.list_namespaced_custom_object(*BMH)["metadata"]["resourceVersion"]
    co.patch_namespaced_custom_object(*BMH, "a", {"spec": {"online": False}})
    create_host(co, "d")
    co.delete_namespaced_custom_object(*BMH, "b")
    events = _events(co, resource_version=rv, timeout_seconds=1)
    assert [(t, n) for t, n, _ in events] == [("MODIFIED", "a"), ("ADDED", "d"), ("DELETED", "b")]
    versions = [int(v) for _, _, v in events]
    assert versions == sorted(versions) and versions[0] > int(rv)


def test_watch_without_resource_version_starts_with_current_objects(co: Custom) -> None:
    events = _events(co, timeout_seconds=1, label_selector="env")
    assert [(t, n) for t, n, _ in events] == [("ADDED", "a"), ("ADDED", "b")]


def test_watch_selector_transitions(co: Custom) -> None:
    rv = co.list_namespaced_custom_object(*BMH)["metadata"]["resourceVersion"]
    co.patch_namespaced_custom_object(*BMH, "c", {"metadata": {"labels": {"env": "prod"}}})
    co.patch_namespaced_custom_object(*BMH, "a", {"metadata": {"labels": {"env": None}}})
    co.patch_namespaced_custom_object(*BMH, "b", {"spec": {"online": False}})
    events = _events(co, resource_version=rv, timeout_seconds=1, label_selector="env=prod")
    assert [(t, n) for t, n, _ in events] == [("ADDED", "c"), ("DELETED", "a")]


def test_watch_timeout_is_honoured(co: Custom) -> None:
    started = time.monotonic()
    rv = co.list_namespaced_custom_object(*BMH)["metadata"]["resourceVersion"]
    assert _events(co, resource_version=rv, timeout_seconds=1) == []
    assert 0.9 < time.monotonic() - started < seconds(5)


def test_watch_from_compacted_version_is_410() -> None:
    server = SandboxServer(history=3)
    server.load_builtin_crds()
    with server:
        client = server.api_client()
        try:
            co = Custom(client)
            first = create_host(co, "x")["metadata"]["resourceVersion"]
            for i in range(5):
                create_host(co, f"y{i}")
            with pytest.raises(ApiException) as caught:
                _events(co, resource_version=first, timeout_seconds=1)
            assert caught.value.status == 410
            assert "too old resource version" in str(caught.value.reason)
        finally:
            client.close()


def _relabel(co: Custom, name: str, labels: dict[str, str | None]) -> None:
    co.patch_namespaced_custom_object(*BMH, name, {"metadata": {"labels": labels}})


@pytest.mark.parametrize(
    ("change", "selector", "expected"),
    [
        pytest.param(lambda co: _relabel(co, "a", {"env": "dev"}), "env=prod", [], id="moved-off"),
        pytest.param(
            lambda co: _relabel(co, "c", {"env": "prod"}), "env=prod", ["a", "c"], id="moved-on"
        ),
        pytest.param(lambda co: _relabel(co, "a", {"env": None}), "env=prod", [], id="removed"),
        pytest.param(
            lambda co: co.delete_namespaced_custom_object(*BMH, "a"), "env=prod", [], id="deleted"
        ),
        pytest.param(
            lambda co: _relabel(co, "b", {"tier": "1"}), "env=dev,tier=1", ["b"], id="both-required"
        ),
    ],
)
def test_an_equality_selector_lists_what_the_labels_say_now(
    co: Custom, change: Callable[[Custom], object], selector: str, expected: list[str]
) -> None:
    """The store lists a selector's `key=value` candidates from its label index
    (`apiserver.label_index`); after each change the answer is still what a scan would give."""
    change(co)
    assert _names(co, label_selector=selector) == expected
