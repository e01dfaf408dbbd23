"""CloudEvent parsing at the edge (`dhcpless.serving.events`).

Covers: binary and structured mode for Resource and Reference events, the mode/operation
derived from the type, and every malformed input the SDK or our checks reject, each giving
`InvalidEvent` with a short reason (never an SDK exception leaking out).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from cloudevents.core.bindings.http import HTTPMessage, to_binary_event, to_structured_event
from cloudevents.core.v1.event import CloudEvent

from dhcpless.keys import EventType
from dhcpless.serving import events

HOST = {
    "apiVersion": "metal3.io/v1alpha1",
    "kind": "BareMetalHost",
    "metadata": {"name": "h1", "namespace": "ns", "uid": "u1", "resourceVersion": "7"},
    "spec": {},
}
REF = {"kind": "BareMetalHost", "namespace": "ns", "name": "h1", "apiVersion": "metal3.io/v1alpha1"}
EXT = {"kind": "BareMetalHost", "apiversion": "metal3.io/v1alpha1", "name": "h1", "namespace": "ns"}


def cloudevent(event_type: str, data: Any, **overrides: Any) -> CloudEvent:
    attributes: dict[str, Any] = {
        "type": event_type,
        "source": "https://10.96.0.1:443",
        "subject": "/apis/metal3.io/v1alpha1/namespaces/ns/baremetalhosts/h1",
        "datacontenttype": "application/json",
        **EXT,
        **overrides,
    }
    return CloudEvent(attributes={k: v for k, v in attributes.items() if v is not None}, data=data)


def encode(event: CloudEvent, structured: bool) -> HTTPMessage:
    return to_structured_event(event) if structured else to_binary_event(event)


@pytest.mark.parametrize(
    "structured", [pytest.param(False, id="binary"), pytest.param(True, id="structured")]
)
@pytest.mark.parametrize(
    ("event_type", "data", "mode", "operation"),
    [
        pytest.param(EventType.RESOURCE_ADD, HOST, "Resource", "add", id="resource-add"),
        pytest.param(EventType.RESOURCE_UPDATE, HOST, "Resource", "update", id="resource-update"),
        pytest.param(EventType.RESOURCE_DELETE, HOST, "Resource", "delete", id="resource-delete"),
        pytest.param(EventType.REF_ADD, REF, "Reference", "add", id="ref-add"),
        pytest.param(EventType.REF_UPDATE, REF, "Reference", "update", id="ref-update"),
    ],
)
def test_valid_events_parse(
    structured: bool, event_type: EventType, data: Any, mode: str, operation: str
) -> None:
    message = encode(cloudevent(event_type, data, id="e-1"), structured)
    parsed = events.parse_request(message.headers, message.body)
    assert (parsed.type, parsed.mode, parsed.operation, parsed.id) == (
        event_type,
        mode,
        operation,
        "e-1",
    )
    assert (parsed.ref.kind, parsed.ref.namespace, parsed.ref.name) == ("BareMetalHost", "ns", "h1")
    assert parsed.object == (data if mode == "Resource" else None)


def test_cluster_scoped_reference_has_empty_namespace() -> None:
    ref = {k: v for k, v in REF.items() if k != "namespace"}
    message = to_binary_event(cloudevent(EventType.REF_UPDATE, ref, namespace=""))
    assert events.parse_request(message.headers, message.body).ref.namespace == ""


def raw(headers: dict[str, str], body: bytes) -> tuple[dict[str, str], bytes]:
    return headers, body


BINARY = {
    "ce-specversion": "1.0",
    "ce-id": "1",
    "ce-source": "s",
    "content-type": "application/json",
}


@pytest.mark.parametrize(
    ("headers", "body", "reason"),
    [
        pytest.param({}, b"", "not a CloudEvent", id="empty-body"),
        pytest.param({}, b"{not json", "not a CloudEvent", id="invalid-json"),
        pytest.param({}, b"[1, 2]", "not a CloudEvent", id="json-array"),
        pytest.param({}, json.dumps(HOST).encode(), "not a CloudEvent", id="plain-object"),
        pytest.param(
            {**BINARY, "ce-type": "x", "ce-time": "yesterday"},
            b"{}",
            "not a CloudEvent",
            id="bad-time",
        ),
        pytest.param(
            {**BINARY, "ce-type": "x", "ce-specversion": "9"},
            b"{}",
            "not a CloudEvent",
            id="bad-specversion",
        ),
        pytest.param(
            {**BINARY, "ce-type": "x", "ce-my-ext": "1"},
            b"{}",
            "not a CloudEvent",
            id="bad-extension-name",
        ),
        pytest.param(
            {**BINARY, "ce-type": "com.example"}, b"{}", "unknown event type", id="foreign-type"
        ),
        pytest.param(
            {**BINARY, "ce-type": EventType.RESOURCE_ADD.value},
            b"{}",
            "missing extension",
            id="no-extensions",
        ),
    ],
)
def test_malformed_requests_are_invalid(headers: dict[str, str], body: bytes, reason: str) -> None:
    with pytest.raises(events.InvalidEvent, match=reason) as info:
        events.parse_request(headers, body)
    assert len(info.value.reason) < 200


OTHER_HOST = {**HOST, "metadata": {"name": "h2", "namespace": "ns"}}


@pytest.mark.parametrize(
    ("event_type", "data", "overrides", "reason"),
    [
        pytest.param(
            EventType.RESOURCE_ADD,
            "text",
            {"datacontenttype": "text/plain"},
            "not a JSON object",
            id="data-text",
        ),
        pytest.param(EventType.RESOURCE_ADD, None, {}, "not a JSON object", id="no-data"),
        pytest.param(
            EventType.RESOURCE_ADD, {"kind": "BareMetalHost"}, {}, "no metadata", id="no-metadata"
        ),
        pytest.param(
            EventType.RESOURCE_ADD, OTHER_HOST, {}, "does not match", id="object-other-name"
        ),
        pytest.param(
            EventType.RESOURCE_ADD,
            HOST,
            {"kind": "Secret"},
            "does not match",
            id="extension-other-kind",
        ),
        pytest.param(
            EventType.RESOURCE_ADD, HOST, {"name": ""}, "empty", id="extension-empty-name"
        ),
        pytest.param(
            EventType.REF_ADD, {**REF, "name": "h2"}, {}, "does not match", id="ref-other-name"
        ),
        pytest.param(
            EventType.REF_ADD,
            {"kind": "BareMetalHost"},
            {},
            "not an object reference",
            id="ref-incomplete",
        ),
        pytest.param(
            EventType.REF_ADD, REF, {"apiversion": None}, "missing extension", id="no-apiversion"
        ),
    ],
)
def test_contradictory_events_are_invalid(
    event_type: EventType, data: Any, overrides: dict[str, Any], reason: str
) -> None:
    message = to_binary_event(cloudevent(event_type, data, **overrides))
    with pytest.raises(events.InvalidEvent, match=reason):
        events.parse_request(message.headers, message.body)


def test_ping_is_required_for_resync() -> None:
    ping = CloudEvent(attributes={"type": events.PING_EVENT_TYPE, "source": "/ping"}, data=None)
    events.require_ping(ping)
    with pytest.raises(events.InvalidEvent, match="unexpected event type"):
        events.require_ping(cloudevent(EventType.REF_ADD, REF))
