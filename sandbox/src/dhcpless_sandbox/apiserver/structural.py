"""Pruning and defaulting with a CRD's structural schema, in the real server's order.

apiextensions-apiserver decodes a custom resource, drops fields the schema does not declare
(unless `x-kubernetes-preserve-unknown-fields`), drops `null`s the schema does not allow, then
applies `default`s. The pruned paths are returned so `fieldValidation=Strict` can reject them
and `Warn` can report them.
"""

from __future__ import annotations

import copy
from typing import Any

JSON = dict[str, Any]
EMBEDDED_KEYS = ("apiVersion", "kind", "metadata")


def child_path(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def prune(value: Any, schema: JSON, path: str, unknown: list[str]) -> None:
    """Remove undeclared fields from `value` in place, recording each removed path."""
    if isinstance(value, list) and isinstance(schema.get("items"), dict):
        for i, item in enumerate(value):
            prune(item, schema["items"], f"{path}[{i}]", unknown)
        return
    if not isinstance(value, dict):
        return
    props: JSON = schema.get("properties") or {}
    extra = schema.get("additionalProperties")
    keep = schema.get("x-kubernetes-preserve-unknown-fields") is True
    embedded = schema.get("x-kubernetes-embedded-resource") is True
    for key in list(value):
        sub = props.get(key, extra if isinstance(extra, dict) else None)
        here = child_path(path, key) if key in props or not extra else f"{path}[{key}]"
        if sub is not None:
            prune(value[key], sub, here, unknown)
        elif not (keep or extra is True or (embedded and key in EMBEDDED_KEYS)):
            del value[key]
            unknown.append(here)


def _drop_null(value: JSON, key: str, sub: JSON) -> None:
    if value[key] is None and not sub.get("nullable") and "default" not in sub:
        del value[key]


def default(value: Any, schema: JSON) -> None:
    """Apply `default`s in place: missing (or disallowed-null) fields get a copy of theirs."""
    if isinstance(value, list) and isinstance(schema.get("items"), dict):
        for item in value:
            default(item, schema["items"])
        return
    if not isinstance(value, dict):
        return
    for key, sub in (schema.get("properties") or {}).items():
        if key in value:
            _drop_null(value, key, sub)
        if "default" in sub and (
            key not in value or (value[key] is None and not sub.get("nullable"))
        ):
            value[key] = copy.deepcopy(sub["default"])
        if key in value:
            default(value[key], sub)
    extra = schema.get("additionalProperties")
    if isinstance(extra, dict):
        for key in list(value):
            if key not in (schema.get("properties") or {}):
                default(value[key], extra)
