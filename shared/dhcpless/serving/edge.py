"""Edge helpers the functions share: check an event is about the kind they serve, and turn a
Resource-mode object into its model (a hint only: functions re-read before writing).

Reference mode (a user's choice, to keep events small, knative.md §b) carries no object: where
reading the object by name gives what the function needs, `current` reads it (as
secret-readiness always did); where only the payload can (a delete, whose object is gone,
when the function needs its labels), the 400 says to use Resource mode.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from cloudevents.core.base import BaseCloudEvent

from dhcpless.models import ModelError
from dhcpless.models.base import K8sObject
from dhcpless.serving import events

M = TypeVar("M", bound=K8sObject)
Reader = Callable[[str, str], M]
"""Reads one object by (namespace, name); `errors.Gone` when it is not there (204)."""


def event_about(cloudevent: BaseCloudEvent, kind: str) -> events.ApiServerEvent:
    """The typed event, if it concerns `kind` (another kind means a mis-wired Trigger: 400)."""
    event = events.parse_apiserver_event(cloudevent)
    if event.ref.kind != kind:
        raise events.InvalidEvent(f"expected a {kind} event, got {event.ref.kind}")
    return event


def hint(event: events.ApiServerEvent, model: type[M]) -> M:
    """The Resource-mode object as a model; Reference mode has none to give (400)."""
    if event.object is None:
        raise events.InvalidEvent(
            f"{event.ref.kind} events need Resource mode (the function acts on the object as "
            "the event carries it); set the ApiServerSource's mode to Resource"
        )
    try:
        return model.from_k8s(event.object)
    except ModelError as err:
        raise events.InvalidEvent(str(err)[:200]) from None


def current(
    event: events.ApiServerEvent, model: type[M], read: Reader[M], delete_needs_object: bool
) -> M:
    """The event's object: the Resource-mode hint, or in Reference mode the object read by
    name (a deleted one is Gone: 204). `delete_needs_object`: the function acts on a deleted
    object's payload (its labels), which Reference mode cannot give: 400 saying so."""
    if event.object is not None:
        return hint(event, model)
    if delete_needs_object and event.operation is events.Operation.DELETE:
        raise events.InvalidEvent(
            f"{event.ref.kind} delete events need Resource mode (the deleted object's labels "
            "say what to do); set the ApiServerSource's mode to Resource"
        )
    return read(event.ref.namespace or "default", event.ref.name)
