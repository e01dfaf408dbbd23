"""ApiServerSource event shape (knative.md §b), pure: no API server needed.

Covers: the six types, `source`, `subject` (core kinds under /apis/v1, cluster-scoped objects
with an empty namespace segment), random ids, datacontenttype, the four extensions, Resource
versus Reference payloads, plural guessing, and the seeded drop/duplicate/reorder knobs.
"""

from __future__ import annotations

from typing import Any

import pytest
from cloudevents.core.v1.event import CloudEvent

from dhcpless_sandbox.controllers.reflector import WatchEvent
from dhcpless_sandbox.eventing.eventsource import ApiServerSource
from dhcpless_sandbox.eventing.faults import Faults
from dhcpless_sandbox.eventing.source_events import Mode, guess_plural, make_event

HOST: dict[str, Any] = {
    "apiVersion": "metal3.io/v1alpha1",
    "kind": "BareMetalHost",
    "metadata": {"name": "h1", "namespace": "ns", "resourceVersion": "7", "uid": "u"},
    "spec": {"online": True},
}
SECRET = {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s", "namespace": "ns"}}
NODE = {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "foo"}}
SOURCE = "https://10.96.0.1:443"


@pytest.mark.parametrize(
    ("mode", "kind", "type_"),
    [
        pytest.param(
            Mode.RESOURCE, WatchEvent.ADDED, "dev.knative.apiserver.resource.add", id="r-add"
        ),
        pytest.param(
            Mode.RESOURCE,
            WatchEvent.MODIFIED,
            "dev.knative.apiserver.resource.update",
            id="r-update",
        ),
        pytest.param(
            Mode.RESOURCE,
            WatchEvent.DELETED,
            "dev.knative.apiserver.resource.delete",
            id="r-delete",
        ),
        pytest.param(
            Mode.REFERENCE, WatchEvent.ADDED, "dev.knative.apiserver.ref.add", id="ref-add"
        ),
        pytest.param(
            Mode.REFERENCE, WatchEvent.MODIFIED, "dev.knative.apiserver.ref.update", id="ref-update"
        ),
        pytest.param(
            Mode.REFERENCE, WatchEvent.DELETED, "dev.knative.apiserver.ref.delete", id="ref-delete"
        ),
    ],
)
def test_types(mode: Mode, kind: WatchEvent, type_: str) -> None:
    assert make_event(HOST, kind, mode, SOURCE).get_type() == type_


@pytest.mark.parametrize(
    ("obj", "subject", "namespace"),
    [
        pytest.param(
            HOST, "/apis/metal3.io/v1alpha1/namespaces/ns/baremetalhosts/h1", "ns", id="crd"
        ),
        pytest.param(SECRET, "/apis/v1/namespaces/ns/secrets/s", "ns", id="core-under-apis"),
        pytest.param(NODE, "/apis/v1/namespaces//namespaces/foo", "", id="cluster-scoped"),
    ],
)
def test_attributes(obj: dict[str, Any], subject: str, namespace: str) -> None:
    event = make_event(obj, WatchEvent.ADDED, Mode.RESOURCE, SOURCE)
    assert event.get_subject() == subject
    assert event.get_source() == SOURCE
    assert event.get_datacontenttype() == "application/json"
    assert event.get_extension("namespace") == namespace
    assert event.get_extension("kind") == obj["kind"]
    assert event.get_extension("apiversion") == obj["apiVersion"]
    assert event.get_extension("name") == obj["metadata"]["name"]


def test_ids_are_random_uuids() -> None:
    ids = {make_event(HOST, WatchEvent.ADDED, Mode.RESOURCE, SOURCE).get_id() for _ in range(3)}
    assert len(ids) == 3
    assert all(len(i) == 36 for i in ids)


@pytest.mark.parametrize(
    ("obj", "mode", "data"),
    [
        pytest.param(HOST, Mode.RESOURCE, HOST, id="resource-is-the-object"),
        pytest.param(
            HOST,
            Mode.REFERENCE,
            {
                "kind": "BareMetalHost",
                "namespace": "ns",
                "name": "h1",
                "apiVersion": "metal3.io/v1alpha1",
            },
            id="reference",
        ),
        pytest.param(
            NODE,
            Mode.REFERENCE,
            {"kind": "Namespace", "name": "foo", "apiVersion": "v1"},
            id="reference-cluster-scoped-omits-namespace",
        ),
    ],
)
def test_payload(obj: dict[str, Any], mode: Mode, data: dict[str, Any]) -> None:
    assert make_event(obj, WatchEvent.MODIFIED, mode, SOURCE).get_data() == data


@pytest.mark.parametrize(
    ("kind", "plural"),
    [
        pytest.param("BareMetalHost", "baremetalhosts", id="s"),
        pytest.param("IPAddress", "ipaddresses", id="ses"),
        pytest.param("Policy", "policies", id="ies"),
    ],
)
def test_guess_plural(kind: str, plural: str) -> None:
    assert guess_plural(kind) == plural


def _source(faults: Faults, sent: list[CloudEvent]) -> ApiServerSource:
    def sink(event: CloudEvent) -> int:
        sent.append(event)
        return 202

    return ApiServerSource(None, [], sink, source=SOURCE, faults=faults)  # type: ignore[arg-type]


def _emit_all(source: ApiServerSource, count: int) -> None:
    for index in range(count):
        host = {**HOST, "metadata": {**HOST["metadata"], "name": f"h{index}"}}
        source._handler(Mode.RESOURCE)(WatchEvent.ADDED, host)


@pytest.mark.parametrize(
    ("faults", "check"),
    [
        pytest.param(Faults(), lambda names, ids: names == [f"h{i}" for i in range(20)], id="none"),
        pytest.param(Faults(drop=0.5, seed=1), lambda names, ids: 0 < len(names) < 20, id="drop"),
        pytest.param(
            Faults(duplicate=0.5, seed=1),
            lambda names, ids: len(names) > 20 and len(set(ids)) == len(ids),
            id="duplicate",
        ),
        pytest.param(
            Faults(reorder=0.5, seed=1),
            lambda names, ids: sorted(names) != names and len(names) >= 19,
            id="reorder",
        ),
    ],
)
def test_faults(faults: Faults, check: Any) -> None:
    sent: list[CloudEvent] = []
    _emit_all(_source(faults, sent), 20)
    names = [e.get_extension("name") for e in sent]
    assert check(names, [e.get_id() for e in sent])


def test_faults_are_seeded() -> None:
    runs = []
    for _ in range(2):
        sent: list[CloudEvent] = []
        _emit_all(_source(Faults(drop=0.3, reorder=0.3, seed=7), sent), 30)
        runs.append([e.get_extension("name") for e in sent])
    assert runs[0] == runs[1]
