"""The ApiServerSource stand-in honours `namespaceSelector` (knative/eventing
`pkg/reconciler/apiserversource/apiserversource.go` `namespacesFromSelector`).

Before, a source given a selector sent events from every namespace. Now only the namespaces
the selector selects: a namespace labelled later is watched from then on, one unlabelled is not
any more, and a namespace created just before its objects loses none of their events.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any, cast

import pytest
from cloudevents.core.v1.event import CloudEvent
from kubernetes import client

from dhcpless_sandbox.apiserver.server import SandboxServer
from dhcpless_sandbox.controllers.reflector import WatchedResource
from dhcpless_sandbox.eventing.eventsource import ApiServerSource, SourceResource
from dhcpless_sandbox.eventing.source_events import Mode
from tests.support.waits import eventually, seconds

LABEL = {"dhcpless.metal3.io/hosts": "yes"}
SELECTOR = "dhcpless.metal3.io/hosts=yes"
SECRETS = [SourceResource(WatchedResource("v1", "Secret", "secrets"), Mode.REFERENCE)]


class Names:
    """The sink: the (namespace, name) of every event, in order."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, str]] = []
        self._lock = threading.Lock()

    def __call__(self, event: CloudEvent) -> int:
        with self._lock:
            self.seen.append(
                (str(event.get_extension("namespace")), str(event.get_extension("name")))
            )
        return 202


def _namespace(api: client.ApiClient, name: str, labels: dict[str, str] | None) -> None:
    body = {"metadata": {"name": name, "labels": labels or {}}}
    client.CoreV1Api(api).create_namespace(cast(Any, body))


def _label(api: client.ApiClient, name: str, labels: dict[str, str | None]) -> None:
    client.CoreV1Api(api).patch_namespace(name, {"metadata": {"labels": labels}})


def _secret(api: client.ApiClient, namespace: str, name: str) -> None:
    body = {"metadata": {"name": name, "namespace": namespace}}
    client.CoreV1Api(api).create_namespaced_secret(namespace, cast(Any, body))


@pytest.fixture
def names() -> Names:
    return Names()


def _source(
    sandbox: SandboxServer, api: client.ApiClient, sink: Names, selector: str | None
) -> Iterator[ApiServerSource]:
    source = ApiServerSource(api, SECRETS, sink, source=sandbox.url, namespace_selector=selector)
    source.start()
    assert source.wait_synced(seconds(10))
    yield source
    source.stop()


@pytest.fixture
def selecting(
    sandbox: SandboxServer, api_client: client.ApiClient, names: Names
) -> Iterator[ApiServerSource]:
    yield from _source(sandbox, api_client, names, SELECTOR)


def _marker_arrives(api: client.ApiClient, names: Names, namespace: str, marker: str) -> None:
    """A marker Secret in a selected namespace: once it is seen, earlier events have been too."""
    _secret(api, namespace, marker)
    eventually(lambda: (namespace, marker) in names.seen, seconds(10), f"{marker} delivered")


def test_only_selected_namespaces_send_events(
    api_client: client.ApiClient, selecting: ApiServerSource, names: Names
) -> None:
    _namespace(api_client, "picked", LABEL)
    _namespace(api_client, "other", None)
    _secret(api_client, "other", "hidden")
    _secret(api_client, "picked", "shown")
    _marker_arrives(api_client, names, "picked", "marker")
    assert names.seen == [("picked", "shown"), ("picked", "marker")]


def test_labelling_and_unlabelling_a_namespace_changes_what_is_sent(
    api_client: client.ApiClient, selecting: ApiServerSource, names: Names
) -> None:
    _namespace(api_client, "picked", LABEL)
    _namespace(api_client, "later", None)
    _label(api_client, "later", dict(LABEL))
    _secret(api_client, "later", "now-shown")
    _label(api_client, "picked", {key: None for key in LABEL})
    eventually(lambda: not selecting.selects("picked"), seconds(10), "picked unselected")
    _secret(api_client, "picked", "now-hidden")
    _marker_arrives(api_client, names, "later", "marker")
    assert names.seen == [("later", "now-shown"), ("later", "marker")]


@pytest.mark.parametrize(
    "selector", [pytest.param(None, id="no-selector"), pytest.param("", id="empty-selector")]
)
def test_without_a_selector_every_namespace_sends(
    sandbox: SandboxServer, api_client: client.ApiClient, names: Names, selector: str | None
) -> None:
    for source in _source(sandbox, api_client, names, selector):
        _namespace(api_client, "plain", None)
        _secret(api_client, "plain", "seen")
        eventually(lambda: ("plain", "seen") in names.seen, seconds(10), "delivered")
        assert source.dropped == 0
