"""Copy a CloudEvent with some attributes set or replaced.

Exists because three stand-ins do exactly this: the broker stamps `knativearrivaltime` and the
`knativeerror*` extensions, and the event source's fault injection duplicates an event under a
new id. CloudEvent objects are immutable, so a copy is the only way.
"""

from __future__ import annotations

from cloudevents.core.base import BaseCloudEvent
from cloudevents.core.v1.event import CloudEvent


def with_attributes(event: BaseCloudEvent, **attributes: str) -> CloudEvent:
    """The same event (data included) with `attributes` overriding its own."""
    return CloudEvent(attributes={**event.get_attributes(), **attributes}, data=event.get_data())
