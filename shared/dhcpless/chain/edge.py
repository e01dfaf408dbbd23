"""Edge helpers the functions share: check an event is about the kind they serve, and turn a
Resource-mode object into its model (a hint only: functions re-read before writing)."""

from __future__ import annotations

from typing import TypeVar

from cloudevents.core.base import BaseCloudEvent

from dhcpless import events
from dhcpless.models import ModelError
from dhcpless.models.base import K8sObject

M = TypeVar("M", bound=K8sObject)


def event_about(cloudevent: BaseCloudEvent, kind: str) -> events.ApiServerEvent:
    """The typed event, if it concerns `kind` (another kind means a mis-wired Trigger: 400)."""
    event = events.parse_apiserver_event(cloudevent)
    if event.ref.kind != kind:
        raise events.InvalidEvent(f"expected a {kind} event, got {event.ref.kind}")
    return event


def hint(event: events.ApiServerEvent, model: type[M]) -> M:
    """The Resource-mode object as a model; Reference mode has none to give (400)."""
    if event.object is None:
        raise events.InvalidEvent(f"expected a Resource-mode event, got {event.mode}")
    try:
        return model.from_k8s(event.object)
    except ModelError as err:
        raise events.InvalidEvent(str(err)[:200]) from None
