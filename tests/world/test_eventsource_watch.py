"""The ApiServerSource stand-in against the sandbox: real LIST+WATCH through the client.

Covers: add/update/delete events in watch order, Resource and Reference modes side by side,
a label selector that hides unlabelled objects, and no events for objects that already
exist when the source starts or restarts (what happened while it was down is lost).
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

NS = "default"
SOURCES = [
    SourceResource(WatchedResource("v1", "ConfigMap", "configmaps"), Mode.RESOURCE),
    SourceResource(WatchedResource("v1", "Secret", "secrets", "pick=me"), Mode.REFERENCE),
]


class Recorder:
    def __init__(self) -> None:
        self.events: list[CloudEvent] = []
        self._lock = threading.Lock()

    def __call__(self, event: CloudEvent) -> int:
        with self._lock:
            self.events.append(event)
        return 202

    def seen(self) -> list[tuple[str, str]]:
        with self._lock:
            return [
                (
                    e.get_type().rsplit(".", 2)[-2] + "." + e.get_type().rsplit(".", 1)[-1],
                    str(e.get_extension("name")),
                )
                for e in self.events
            ]


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()


@pytest.fixture
def source(
    server: SandboxServer, api: client.ApiClient, recorder: Recorder
) -> Iterator[ApiServerSource]:
    started = ApiServerSource(api, SOURCES, recorder, source=server.url)
    started.start()
    assert started.wait_synced(seconds(10))
    yield started
    started.stop()


def configmap(api: client.ApiClient, name: str) -> None:
    body = {"metadata": {"name": name, "namespace": NS}, "data": {"k": "v"}}
    client.CoreV1Api(api).create_namespaced_config_map(NS, cast(Any, body))


def secret(api: client.ApiClient, name: str, labels: dict[str, str]) -> None:
    body = {"metadata": {"name": name, "namespace": NS, "labels": labels}, "data": {}}
    client.CoreV1Api(api).create_namespaced_secret(NS, cast(Any, body))


def test_add_update_delete(
    api: client.ApiClient, source: ApiServerSource, recorder: Recorder
) -> None:
    core = client.CoreV1Api(api)
    configmap(api, "c1")
    core.patch_namespaced_config_map("c1", NS, {"data": {"k": "w"}})
    core.delete_namespaced_config_map("c1", NS)
    expected = [("resource.add", "c1"), ("resource.update", "c1"), ("resource.delete", "c1")]
    assert eventually(lambda: recorder.seen() == expected)
    update = recorder.events[1]
    assert cast(dict[str, Any], update.get_data())["data"] == {"k": "w"}
    assert update.get_subject() == f"/apis/v1/namespaces/{NS}/configmaps/c1"


def test_reference_mode_and_selector(
    api: client.ApiClient, source: ApiServerSource, recorder: Recorder
) -> None:
    secret(api, "hidden", {})
    secret(api, "shown", {"pick": "me"})
    assert eventually(lambda: recorder.seen() == [("ref.add", "shown")])
    assert recorder.events[0].get_data() == {
        "kind": "Secret",
        "namespace": NS,
        "name": "shown",
        "apiVersion": "v1",
    }


def test_no_replay_after_restart(
    api: client.ApiClient, source: ApiServerSource, recorder: Recorder
) -> None:
    configmap(api, "before")
    eventually(lambda: recorder.seen() == [("resource.add", "before")])
    source.stop()
    configmap(api, "while-down")
    source.start()
    assert source.wait_synced(seconds(10))
    configmap(api, "after")
    assert eventually(lambda: ("resource.add", "after") in recorder.seen())
    assert recorder.seen() == [("resource.add", "before"), ("resource.add", "after")]
