"""The merge of server-side apply: a configuration onto the live object, by schema.

sigs.k8s.io/structured-merge-diff `merge/update.go` (`Updater.Apply`) and `typed/merge.go`:
objects merge field by field; `x-kubernetes-list-type: map` lists merge item by item on their
`x-kubernetes-list-map-keys` (new items appended); `set` lists are unions; atomic lists, atomic
maps and scalars are replaced whole. Before merging, the fields the applier set last time, left
out now and owned by nobody else are removed (`Updater.prune`).
"""

from __future__ import annotations

import copy
import json
from typing import Any

from dhcpless_sandbox.apiserver import fieldmanager
from dhcpless_sandbox.apiserver.fieldpaths import META_SCHEMA, Path, child_schema, item_key
from dhcpless_sandbox.apiserver.fieldpaths import list_type as list_type_of
from dhcpless_sandbox.apiserver.kinds import ResourceType

JSON = dict[str, Any]


def merge(live: Any, config: Any, schema: JSON) -> Any:
    """`config` applied over `live`; neither is changed."""
    if isinstance(live, dict) and isinstance(config, dict):
        if schema.get("x-kubernetes-map-type") == "atomic":
            return copy.deepcopy(config)
        out = dict(live)
        for key, value in config.items():
            child = child_schema(schema, key) if key != "metadata" else META_SCHEMA
            out[key] = merge(live[key], value, child) if key in live else copy.deepcopy(value)
        return out
    if isinstance(live, list) and isinstance(config, list):
        return _merge_list(live, config, schema)
    return copy.deepcopy(config)


def _merge_list(live: list[Any], config: list[Any], schema: JSON) -> list[Any]:
    kind = list_type_of(schema)
    if kind == "set":
        return [*live, *(copy.deepcopy(v) for v in config if v not in live)]
    if kind != "map":
        return copy.deepcopy(config)
    out = list(live)
    where = {item_key(item, schema): n for n, item in enumerate(out)}
    for item in config:
        key = item_key(item, schema)
        if key in where:
            out[where[key]] = merge(out[where[key]], item, schema.get("items") or {})
        else:
            out.append(copy.deepcopy(item))
    return out


def remove(obj: Any, path: Path) -> None:
    """Delete the field or list item at `path` from `obj` in place (missing: nothing to do)."""
    parent = obj
    for element in path[:-1]:
        parent = _step(parent, element)
        if parent is None:
            return
    last = path[-1]
    if last.startswith("f:") and isinstance(parent, dict):
        parent.pop(last[2:], None)
    elif isinstance(parent, list):
        parent[:] = [item for item in parent if not _is(item, last)]


def _step(value: Any, element: str) -> Any:
    if element.startswith("f:"):
        return value.get(element[2:]) if isinstance(value, dict) else None
    if isinstance(value, list):
        return next((item for item in value if _is(item, element)), None)
    return None


def _is(item: Any, element: str) -> bool:
    wanted = json.loads(element[2:])
    if element.startswith("k:"):
        return isinstance(item, dict) and all(item.get(k) == v for k, v in wanted.items())
    return bool(item == wanted)


def apply(rt: ResourceType, live: JSON, config: JSON, manager: str, sub: str) -> JSON:
    """The object after applying `config` for `manager` (ownership is recorded later)."""
    before, others = fieldmanager.previously_applied(live, manager, sub)
    dropped = before - set(fieldmanager.leaves_of(rt, config, sub)) - others
    pruned = copy.deepcopy(live)
    for path in sorted(dropped, key=len, reverse=True):
        remove(pruned, path)
    merged: JSON = merge(pruned, config, rt.schema or {})
    return merged
