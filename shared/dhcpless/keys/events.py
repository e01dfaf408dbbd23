"""CloudEvent types we receive and the component our core/v1 Events name."""

from __future__ import annotations

from enum import StrEnum
from typing import Final

__all__ = ["EVENT_REPORTING_COMPONENT", "EventType"]


class EventType(StrEnum):
    """ApiServerSource CloudEvent types (reference knative.md §b)."""

    RESOURCE_ADD = "dev.knative.apiserver.resource.add"
    RESOURCE_UPDATE = "dev.knative.apiserver.resource.update"
    RESOURCE_DELETE = "dev.knative.apiserver.resource.delete"
    REF_ADD = "dev.knative.apiserver.ref.add"
    REF_UPDATE = "dev.knative.apiserver.ref.update"
    REF_DELETE = "dev.knative.apiserver.ref.delete"


EVENT_REPORTING_COMPONENT: Final = "metal3-dhcpless"
