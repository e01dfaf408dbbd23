"""Server-side printing: `meta.k8s.io/v1` Table responses for `kubectl get`.

kubectl asks for `as=Table`; the rows' cells come from the resource's printer columns (a CRD's
`additionalPrinterColumns`, or Age by default) and `date` columns are turned into ages such as
`42s` or `3h5m` as the real server does.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

from dhcpless_sandbox.apiserver import printers
from dhcpless_sandbox.apiserver.durations import human_age
from dhcpless_sandbox.apiserver.kinds import PrinterColumn, ResourceType

JSON = dict[str, Any]
AGE = PrinterColumn("Age", "date", ".metadata.creationTimestamp")
NAME: JSON = {
    "name": "Name",
    "type": "string",
    "format": "name",
    "priority": 0,
    "description": "Name must be unique within a namespace.",
}


def wants_table(accept: str) -> bool:
    return "as=Table" in accept


def lookup(obj: Any, path: str) -> Any:
    """A simple JSONPath (`.a.b[0]`, `\\.` escapes a dot in a key); filters give None."""
    for raw in re.findall(r"(?:\\.|[^.\[\]])+", path):
        part = raw.replace("\\.", ".")
        if isinstance(obj, dict):
            obj = obj.get(part)
        elif isinstance(obj, list) and part.isdigit() and int(part) < len(obj):
            obj = obj[int(part)]
        else:
            return None
    return obj


def _cell(obj: JSON, column: PrinterColumn) -> Any:
    found, cell = printers.computed(obj, column)
    if found:
        return cell
    value = lookup(obj, column.json_path)
    if column.type == "date" and isinstance(value, str):
        then = datetime.fromisoformat(value.replace("Z", "+00:00"))
        return human_age(max(0, int((datetime.now(UTC) - then).total_seconds())))
    return value


def _columns(rt: ResourceType) -> tuple[PrinterColumn, ...]:
    return rt.columns or (AGE,)


def _named(rt: ResourceType) -> bool:
    return not rt.extra.get(printers.NO_NAME_COLUMN)


def row(rt: ResourceType, obj: JSON, include: str) -> JSON:
    name = [obj["metadata"]["name"]] if _named(rt) else []
    cells = [*name, *(_cell(obj, c) for c in _columns(rt))]
    out: JSON = {"cells": cells}
    if include == "Object":
        out["object"] = obj
    elif include != "None":
        out["object"] = {
            "kind": "PartialObjectMetadata",
            "apiVersion": "meta.k8s.io/v1",
            "metadata": obj["metadata"],
        }
    return out


def table(rt: ResourceType, objs: list[JSON], meta: JSON, include: str) -> JSON:
    definitions = [
        *([NAME] if _named(rt) else []),
        *(
            {
                "name": c.name,
                "type": c.type,
                "format": c.format,
                "description": c.description,
                "priority": c.priority,
            }
            for c in _columns(rt)
        ),
    ]
    return {
        "kind": "Table",
        "apiVersion": "meta.k8s.io/v1",
        "metadata": meta,
        "columnDefinitions": definitions,
        "rows": [row(rt, o, include) for o in objs],
    }
