"""Field paths for server-side apply: which fields an object sets, and the FieldsV1 encoding.

A path is a tuple of FieldsV1 keys (sigs.k8s.io/structured-merge-diff `fieldpath/serialize.go`):
`f:<name>` for an object field, `k:<json>` for an item of a `x-kubernetes-list-type: map` list
(named by its `x-kubernetes-list-map-keys`), `v:<json>` for an item of a `set` list. Lists
without a list type, and maps with `x-kubernetes-map-type: atomic`, are one leaf, as for CRDs
upstream (`atomic` is the default list type of a structural schema). The metadata fields the
server owns are not tracked (k8s.io/apimachinery `pkg/util/managedfields/internal/stripmeta.go`);
`finalizers` is a set and `ownerReferences` a map keyed by `uid`, as in ObjectMeta's markers.
"""

from __future__ import annotations

import json
from typing import Any

JSON = dict[str, Any]
Path = tuple[str, ...]
ITEM = object()
"""The value recorded for a list item's own path: items compare by presence, not content."""

META_SCHEMA: JSON = {
    "type": "object",
    "properties": {
        "finalizers": {"type": "array", "x-kubernetes-list-type": "set"},
        "ownerReferences": {
            "type": "array",
            "x-kubernetes-list-type": "map",
            "x-kubernetes-list-map-keys": ["uid"],
        },
    },
}
UNTRACKED_META = frozenset(
    {
        "name",
        "namespace",
        "uid",
        "resourceVersion",
        "creationTimestamp",
        "deletionTimestamp",
        "deletionGracePeriodSeconds",
        "generation",
        "managedFields",
        "selfLink",
    }
)


def _compact(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def child_schema(schema: JSON, key: str) -> JSON:
    props, extra = schema.get("properties") or {}, schema.get("additionalProperties")
    if key in props:
        found: JSON = props[key]
        return found
    return extra if isinstance(extra, dict) else {}


def list_type(schema: JSON) -> str:
    return str(schema.get("x-kubernetes-list-type") or "atomic")


def item_key(item: Any, schema: JSON) -> str:
    if list_type(schema) == "map" and isinstance(item, dict):
        keys = schema.get("x-kubernetes-list-map-keys") or []
        return "k:" + _compact({k: item[k] for k in keys if k in item})
    return "v:" + _compact(item)


def leaves(value: Any, schema: JSON, path: Path = ()) -> dict[Path, Any]:
    """Every path `value` sets -> the value there (`ITEM` for list items)."""
    granular_map = (
        isinstance(value, dict) and value and schema.get("x-kubernetes-map-type") != "atomic"
    )
    if granular_map:
        out: dict[Path, Any] = {}
        for key, child in value.items():
            out |= leaves(child, child_schema(schema, key), (*path, f"f:{key}"))
        return out
    if isinstance(value, list) and value and list_type(schema) in ("map", "set"):
        return _list_leaves(value, schema, path)
    return {path: value}


def _list_leaves(value: list[Any], schema: JSON, path: Path) -> dict[Path, Any]:
    items, out = schema.get("items") or {}, {}
    for item in value:
        where = (*path, item_key(item, schema))
        out[where] = ITEM
        if list_type(schema) == "map" and isinstance(item, dict):
            out |= leaves(item, items, where)
    return out


def object_leaves(obj: JSON | None, schema: JSON, subresource: str, split: bool) -> dict[Path, Any]:
    """The paths an object's owners can own: server-owned metadata stripped, and only status
    (for /status) or everything but status (main resource, when status is split off)."""
    if not obj:
        return {}
    body = {k: v for k, v in obj.items() if k not in ("apiVersion", "kind")}
    meta = {k: v for k, v in (obj.get("metadata") or {}).items() if k not in UNTRACKED_META}
    body.pop("metadata", None)
    if meta:
        body["metadata"] = meta
    if subresource == "status":
        body = {"status": body["status"]} if "status" in body else {}
    elif split:
        body.pop("status", None)
    props = {**(schema.get("properties") or {}), "metadata": META_SCHEMA}
    return {p: v for p, v in leaves(body, {**schema, "properties": props}).items() if p}


def encode(paths: set[Path]) -> JSON:
    """FieldsV1: a trie of the keys; `.` marks a member that also has members below it."""
    root: JSON = {}
    for path in sorted(paths):
        node = root
        for element in path:
            node = node.setdefault(element, {})
    for path in paths:
        node = root
        for element in path:
            node = node[element]
        if node and "." not in node:
            node["."] = {}
    return root


def decode(fields: JSON, path: Path = ()) -> set[Path]:
    out: set[Path] = set()
    for key, child in fields.items():
        if key == ".":
            out.add(path)
        elif not child:
            out.add((*path, key))
        else:
            out |= decode(child, (*path, key))
    return out


def show(path: Path) -> str:
    """A path as conflict messages print it (structured-merge-diff `PathElement.String`)."""
    return "".join(_show(element) for element in path)


def _show(element: str) -> str:
    kind, raw = element[:2], element[2:]
    if kind == "f:":
        return "." + raw
    if kind == "k:":
        pairs = sorted(json.loads(raw).items())
        return "[" + ",".join(f"{k}={json.dumps(v)}" for k, v in pairs) + "]"
    return f"[={json.dumps(json.loads(raw))}]"
