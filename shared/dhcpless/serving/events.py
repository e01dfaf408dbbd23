"""CloudEvent parsing at the edge: one HTTP request in, one typed event out, or `InvalidEvent`.

The ApiServerSource (knative.md §b) sends binary-mode events by default and structured mode
when a Trigger asks for `delivery.format: json`, so both are accepted. Everything the
functions need is checked here once: the event type is one of the six ApiServerSource types,
the four extensions (`kind`, `apiversion`, `name`, `namespace`) are present, name and
namespace are ones the API accepts (`dhcpless.names`), and the data agrees with them.
Nothing past this module sees a raw CloudEvent or an unchecked dict.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from cloudevents.core.base import BaseCloudEvent
from cloudevents.core.bindings.http import HTTPMessage, from_http_event
from cloudevents.core.exceptions import BaseCloudEventException
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from dhcpless import names
from dhcpless.errors import InvalidInput
from dhcpless.keys import EventType

PING_EVENT_TYPE = "dev.knative.sources.ping"
"""The PingSource event type; only `resync` accepts it."""

_EXTENSIONS = ("kind", "apiversion", "name", "namespace")


class InvalidEvent(InvalidInput):
    """Not a CloudEvent, or not an ApiServerSource event we understand (HTTP 400)."""


class EventMode(StrEnum):
    """ApiServerSource `spec.mode`: the whole object, or only a reference to it."""

    RESOURCE = "Resource"
    REFERENCE = "Reference"


class Operation(StrEnum):
    """The watch operation behind the event."""

    ADD = "add"
    UPDATE = "update"
    DELETE = "delete"


class ObjectReference(BaseModel):
    """The four fields Reference mode carries (a `corev1.ObjectReference`, knative.md §b)."""

    model_config = ConfigDict(frozen=True, populate_by_name=True)

    kind: str = Field(min_length=1)
    namespace: str = ""
    name: str = Field(min_length=1)
    api_version: str = Field(alias="apiVersion", min_length=1)


class ApiServerEvent(BaseModel):
    """One ApiServerSource event, checked: the object (Resource) or the reference (both)."""

    model_config = ConfigDict(frozen=True)

    type: EventType
    id: str
    source: str
    subject: str | None
    ref: ObjectReference
    object: dict[str, Any] | None = None
    """Resource mode only: the object as the watch saw it (a hint, possibly stale)."""

    @property
    def mode(self) -> EventMode:
        return EventMode.RESOURCE if ".resource." in self.type else EventMode.REFERENCE

    @property
    def operation(self) -> Operation:
        return Operation(self.type.rsplit(".", 1)[1])


def read_cloudevent(headers: Mapping[str, str], body: bytes) -> BaseCloudEvent:
    """Decode binary or structured mode; every way the SDK rejects input becomes InvalidEvent."""
    try:
        return from_http_event(HTTPMessage(headers=dict(headers), body=body))
    except (BaseCloudEventException, ValueError, AttributeError, TypeError) as exc:
        raise InvalidEvent(f"not a CloudEvent: {_short(exc)}") from exc
    except RecursionError:  # JSON nested deeper than the parser's stack: never acceptable
        raise InvalidEvent("not a CloudEvent: JSON nested too deeply") from None


def parse_apiserver_event(cloudevent: BaseCloudEvent) -> ApiServerEvent:
    """Check an ApiServerSource event and type it (raises InvalidEvent)."""
    event_type = _event_type(cloudevent.get_type())
    ref = _reference_from_extensions(cloudevent)
    data = cloudevent.get_data()
    if not isinstance(data, dict):
        raise InvalidEvent("event data is not a JSON object")
    fields: dict[str, Any] = {
        "type": event_type,
        "id": cloudevent.get_id(),
        "source": cloudevent.get_source(),
        "subject": cloudevent.get_subject(),
        "ref": ref,
    }
    if ".resource." in event_type:
        _check_object(data, ref)
        return ApiServerEvent(**fields, object=data)
    _check_reference(data, ref)
    return ApiServerEvent(**fields)


def parse_request(headers: Mapping[str, str], body: bytes) -> ApiServerEvent:
    """Both steps at once: the usual entry point of a function."""
    return parse_apiserver_event(read_cloudevent(headers, body))


def require_ping(cloudevent: BaseCloudEvent) -> None:
    """Resync accepts only PingSource events; anything else is a wiring mistake (400)."""
    if cloudevent.get_type() != PING_EVENT_TYPE:
        raise InvalidEvent(f"unexpected event type {cloudevent.get_type()!r}")


def _event_type(value: str) -> EventType:
    try:
        return EventType(value)
    except ValueError:
        raise InvalidEvent(f"unknown event type {value!r}") from None


def _reference_from_extensions(cloudevent: BaseCloudEvent) -> ObjectReference:
    values = {name: cloudevent.get_extension(name) for name in _EXTENSIONS}
    missing = [name for name, value in values.items() if not isinstance(value, str)]
    if missing:
        raise InvalidEvent(f"missing extension(s): {', '.join(missing)}")
    try:
        ref = ObjectReference(
            kind=values["kind"],
            namespace=values["namespace"],
            name=values["name"],
            apiVersion=values["apiversion"],
        )
    except ValidationError:
        raise InvalidEvent("empty kind, apiversion or name extension") from None
    _check_names(ref)
    return ref


def _check_names(ref: ObjectReference) -> None:
    """A name the API would refuse (`.`, `..`, `a/b`, ...) is bad input, never a URL (`names`)."""
    problem = names.name_problem(ref.name)
    if ref.namespace and problem is None:  # empty: the functions' "default"
        problem = names.namespace_problem(ref.namespace)
    if problem is not None:
        raise InvalidEvent(f"{ref.kind} event: {problem}")


def _check_object(data: Mapping[str, Any], ref: ObjectReference) -> None:
    """Resource mode: the object must be the one the extensions name."""
    metadata = data.get("metadata")
    if not isinstance(metadata, dict):
        raise InvalidEvent("event object has no metadata")
    seen = (data.get("kind"), data.get("apiVersion"), metadata.get("name"))
    if seen != (ref.kind, ref.api_version, ref.name) or metadata.get("namespace", "") != (
        ref.namespace
    ):
        raise InvalidEvent("event object does not match the kind/apiversion/name/namespace")


def _check_reference(data: Mapping[str, Any], ref: ObjectReference) -> None:
    """Reference mode: the data is the reference, and must agree with the extensions."""
    try:
        parsed = ObjectReference.model_validate(data)
    except ValidationError:
        raise InvalidEvent("event data is not an object reference") from None
    if parsed != ref:
        raise InvalidEvent("event reference does not match the extensions")


def _short(exc: BaseException) -> str:
    """First line of an exception, bounded, so a 400 body stays short."""
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return text[:160]
