"""Computed printer columns of built-in kinds, as kube-apiserver's table printers show them.

A CRD's columns are JSONPaths; the real server's printers for built-in kinds compute some cells
(k8s.io/kubernetes `pkg/printers/internalversion/printers.go`: `printSecret` counts the keys of
`data`, `printEvent` shows "Kind/name" and the age of the last occurrence, and the Event table
has no leading Name column). A column whose json_path starts with `#` names a function here.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from dhcpless_sandbox.apiserver.durations import human_age
from dhcpless_sandbox.apiserver.kinds import PrinterColumn

JSON = dict[str, Any]
NO_NAME_COLUMN = "noNameColumn"
"""`ResourceType.extra` key: the table starts with the printer's own columns (Events)."""


def _age(value: Any) -> str:
    if not isinstance(value, str) or not value:
        return "<unknown>"
    then = datetime.fromisoformat(value.replace("Z", "+00:00"))
    return human_age(max(0, int((datetime.now(UTC) - then).total_seconds())))


def _last_seen(event: JSON) -> str:
    series = (event.get("series") or {}).get("lastObservedTime")
    return _age(series or event.get("lastTimestamp") or event.get("eventTime"))


def _object(event: JSON) -> str:
    ref = event.get("involvedObject") or event.get("regarding") or {}
    return f"{str(ref.get('kind', '')).lower()}/{ref.get('name', '')}"


def _source(event: JSON) -> str:
    source = event.get("source") or {}
    text = source.get("component") or event.get("reportingComponent") or ""
    return f"{text}, {source['host']}" if source.get("host") else str(text)


COMPUTED: dict[str, Callable[[JSON], Any]] = {
    "#dataCount": lambda obj: len(obj.get("data") or {}),
    "#lastSeen": _last_seen,
    "#object": _object,
    "#subobject": lambda e: (e.get("involvedObject") or {}).get("fieldPath", ""),
    "#source": _source,
    "#firstSeen": lambda e: _age(e.get("firstTimestamp") or e.get("eventTime")),
    "#count": lambda e: e.get("count") or (e.get("series") or {}).get("count") or 1,
    "#name": lambda e: e["metadata"]["name"],
}

SECRET_COLUMNS = (
    PrinterColumn("Type", "string", ".type"),
    PrinterColumn("Data", "string", "#dataCount"),
)
EVENT_COLUMNS = (
    PrinterColumn("Last Seen", "string", "#lastSeen"),
    PrinterColumn("Type", "string", ".type"),
    PrinterColumn("Reason", "string", ".reason"),
    PrinterColumn("Object", "string", "#object"),
    PrinterColumn("Subobject", "string", "#subobject", priority=1),
    PrinterColumn("Source", "string", "#source", priority=1),
    PrinterColumn("Message", "string", ".message"),
    PrinterColumn("First Seen", "string", "#firstSeen", priority=1),
    PrinterColumn("Count", "string", "#count", priority=1),
    PrinterColumn("Name", "string", "#name", priority=1),
)


def computed(obj: JSON, column: PrinterColumn) -> tuple[bool, Any]:
    """(True, cell) when `column` is computed here."""
    function = COMPUTED.get(column.json_path)
    return (False, None) if function is None else (True, function(obj))
