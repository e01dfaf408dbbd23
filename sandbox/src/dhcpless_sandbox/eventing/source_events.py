"""The CloudEvents an ApiServerSource sends (knative.md §b), built from one watch event.

Exists apart from the adapter loop because it is pure and is what the functions' parsers are
tested against: the event `type` per mode and watch event, the `subject` path (with the
plural guessed as apimachinery's `UnsafeGuessKindToResource` does), the `kind`/`apiversion`/
`name`/`namespace` extensions, and the payload (the whole object, or a reference to it).
"""

from __future__ import annotations

import uuid
from enum import StrEnum
from typing import Any

from cloudevents.core.v1.event import CloudEvent

from dhcpless.keys import EventType
from dhcpless_sandbox.controllers.reflector import WatchEvent


class Mode(StrEnum):
    """ApiServerSource `spec.mode`."""

    RESOURCE = "Resource"
    REFERENCE = "Reference"


_TYPES = {
    (Mode.RESOURCE, WatchEvent.ADDED): EventType.RESOURCE_ADD,
    (Mode.RESOURCE, WatchEvent.MODIFIED): EventType.RESOURCE_UPDATE,
    (Mode.RESOURCE, WatchEvent.DELETED): EventType.RESOURCE_DELETE,
    (Mode.REFERENCE, WatchEvent.ADDED): EventType.REF_ADD,
    (Mode.REFERENCE, WatchEvent.MODIFIED): EventType.REF_UPDATE,
    (Mode.REFERENCE, WatchEvent.DELETED): EventType.REF_DELETE,
}


def make_event(obj: dict[str, Any], kind: WatchEvent, mode: Mode, source: str) -> CloudEvent:
    """Build the CloudEvent the adapter sends for one watch event (knative.md §b)."""
    meta = obj.get("metadata", {})
    api_version, obj_kind = str(obj.get("apiVersion", "")), str(obj.get("kind", ""))
    name, namespace = str(meta.get("name", "")), str(meta.get("namespace", ""))
    plural = guess_plural(obj_kind)
    attributes = {
        "type": _TYPES[(mode, kind)].value,
        "source": source,
        "id": str(uuid.uuid4()),
        "subject": f"/apis/{api_version}/namespaces/{namespace}/{plural}/{name}",
        "datacontenttype": "application/json",
        "kind": obj_kind,
        "apiversion": api_version,
        "name": name,
        "namespace": namespace,
    }
    return CloudEvent(attributes=attributes, data=_payload(obj, mode))


def _payload(obj: dict[str, Any], mode: Mode) -> dict[str, Any]:
    if mode is Mode.RESOURCE:
        return obj
    meta = obj.get("metadata", {})
    ref = {"kind": obj.get("kind"), "namespace": meta.get("namespace"), "name": meta.get("name")}
    ref["apiVersion"] = obj.get("apiVersion")
    return {key: value for key, value in ref.items() if value}


def guess_plural(kind: str) -> str:
    """`meta.UnsafeGuessKindToResource`: lower-case, then s→ses, y→ies, else +s."""
    lower = kind.lower()
    if lower.endswith("s"):
        return lower + "es"
    if lower.endswith("y"):
        return lower[:-1] + "ies"
    return lower + "s" if lower else lower
