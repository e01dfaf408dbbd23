"""Strategic merge patch for the core kinds the sandbox serves (a reasonable subset).

The real server reads list-merge keys from Go struct tags. The core kinds here only have a
few merged lists, named in `MERGE_KEYS`; every other list is replaced, as in a merge patch.
The `$patch`, `$retainKeys`, `$setElementOrder/` and `$deleteFromPrimitiveList/` directives
that kubectl sends are honoured or dropped so they never reach storage.
"""

from __future__ import annotations

import copy
from typing import Any

from dhcpless_sandbox.apiserver.patching import merge_patch

MERGE_KEYS: dict[tuple[str, ...], str] = {
    ("metadata", "ownerReferences"): "uid",
    ("secrets",): "name",
    ("imagePullSecrets",): "name",
}
"""Path of a list of objects -> the key its items are merged by."""

PRIMITIVE_SETS = {("metadata", "finalizers")}
"""Lists of scalars that merge as sets (`patchStrategy: merge`)."""

_ORDER, _DELETE_FROM = "$setElementOrder/", "$deleteFromPrimitiveList/"


def strategic_merge(target: Any, patch: Any, path: tuple[str, ...] = ()) -> Any:
    """Returns a new value: `target` with `patch` applied."""
    if not isinstance(patch, dict):
        return copy.deepcopy(patch)
    directive = patch.get("$patch")
    if directive == "delete":
        return None
    base = dict(target) if isinstance(target, dict) and directive != "replace" else {}
    if isinstance(patch.get("$retainKeys"), list):
        base = {k: v for k, v in base.items() if k in patch["$retainKeys"]}
    for key, value in patch.items():
        _merge_key(base, key, value, path)
    return base


def _merge_key(base: dict[str, Any], key: str, value: Any, path: tuple[str, ...]) -> None:
    if key in ("$patch", "$retainKeys") or key.startswith(_ORDER):
        return
    if key.startswith(_DELETE_FROM):
        field = key.removeprefix(_DELETE_FROM)
        base[field] = [v for v in base.get(field) or [] if v not in value]
        return
    here = (*path, key)
    if value is None:
        base.pop(key, None)
    elif isinstance(value, list):
        base[key] = _merge_list(base.get(key), value, here)
    else:
        merged = strategic_merge(base.get(key), value, here)
        if merged is None:
            base.pop(key, None)
        else:
            base[key] = merged


def _merge_list(current: Any, patch: list[Any], path: tuple[str, ...]) -> list[Any]:
    existing = list(current) if isinstance(current, list) else []
    if path in PRIMITIVE_SETS:
        return existing + [v for v in patch if v not in existing]
    key = MERGE_KEYS.get(path)
    if key is None or any(isinstance(i, dict) and i.get("$patch") == "replace" for i in patch):
        return [merge_patch(None, i) for i in patch if not _is_directive(i)]
    for item in patch:
        _merge_item(existing, item, key, path)
    return existing


def _is_directive(item: Any) -> bool:
    return isinstance(item, dict) and "$patch" in item


def _merge_item(items: list[Any], item: Any, key: str, path: tuple[str, ...]) -> None:
    if not isinstance(item, dict):
        items.append(item)
        return
    at = next((i for i, old in enumerate(items) if old.get(key) == item.get(key)), None)
    if item.get("$patch") == "delete":
        if at is not None:
            del items[at]
    elif at is None:
        items.append(strategic_merge(None, item, path))
    else:
        items[at] = strategic_merge(items[at], item, path)
