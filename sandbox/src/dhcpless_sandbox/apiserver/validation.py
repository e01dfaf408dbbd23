"""A small structural-schema validator producing the real server's field errors.

Each error is a `Cause` whose `field` is the dotted path and whose `message` copies the shape of
kube-openapi's messages as apiextensions converts them (`Invalid value: "string": spec.online
in body must be of type boolean: "string"`, `Required value`, `Unsupported value: ...`). CEL
rules (`x-kubernetes-validations`) are not evaluated.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from datetime import datetime
from typing import Any

from dhcpless_sandbox.apiserver.status import Cause
from dhcpless_sandbox.apiserver.structural import child_path

JSON = dict[str, Any]


def type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    return {float: "number", str: "string", list: "array", dict: "object"}[type(value)]


def _show(value: Any) -> str:
    return json.dumps(value) if not isinstance(value, dict | list) else f'"{type_name(value)}"'


def _invalid(path: str, value: Any, why: str) -> Cause:
    return Cause("FieldValueInvalid", f"Invalid value: {_show(value)}: {path} in body {why}", path)


def _type_ok(value: Any, wanted: str) -> bool:
    actual = type_name(value)
    return (
        actual == wanted
        or (wanted == "number" and actual == "integer")
        or (wanted == "integer" and isinstance(value, float) and value.is_integer())
    )


def _type_errors(value: Any, schema: JSON, path: str) -> list[Cause]:
    if value is None:
        ok = schema.get("nullable") is True
    elif schema.get("x-kubernetes-int-or-string"):
        ok = type_name(value) in ("integer", "string")
    else:
        ok = "type" not in schema or _type_ok(value, schema["type"])
    if ok:
        return []
    wanted = "integer-or-string" if schema.get("x-kubernetes-int-or-string") else schema["type"]
    actual = type_name(value)
    message = f'Invalid value: "{actual}": {path} in body must be of type {wanted}: "{actual}"'
    return [Cause("FieldValueTypeInvalid", message, path)]


def _format_ok(value: str, fmt: str) -> bool:
    if fmt == "date-time":
        try:
            datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            return False
        return True
    if fmt == "byte":
        try:
            base64.b64decode(value, validate=True)
        except (binascii.Error, ValueError):
            return False
    return True


def _string_errors(value: str, schema: JSON, path: str) -> list[Cause]:
    out = []
    if "pattern" in schema and not re.search(schema["pattern"], value):
        out.append(_invalid(path, value, f"should match '{schema['pattern']}'"))
    if len(value) < schema.get("minLength", 0):
        out.append(_invalid(path, value, f"should be at least {schema['minLength']} chars long"))
    if "maxLength" in schema and len(value) > schema["maxLength"]:
        message = f"Too long: may not be more than {schema['maxLength']} bytes"
        out.append(Cause("FieldValueTooLong", message, path))
    if "format" in schema and not _format_ok(value, schema["format"]):
        out.append(_invalid(path, value, f"must be of type {schema['format']}"))
    return out


def _number_errors(value: float, schema: JSON, path: str) -> list[Cause]:
    out = []
    if "minimum" in schema:
        low, strict = schema["minimum"], schema.get("exclusiveMinimum") is True
        if value < low or (strict and value == low):
            word = "greater than" if strict else "greater than or equal to"
            out.append(_invalid(path, value, f"should be {word} {low}"))
    if "maximum" in schema:
        high, strict = schema["maximum"], schema.get("exclusiveMaximum") is True
        if value > high or (strict and value == high):
            word = "less than" if strict else "less than or equal to"
            out.append(_invalid(path, value, f"should be {word} {high}"))
    return out


def _array_errors(value: list[Any], schema: JSON, path: str) -> list[Cause]:
    out = []
    if len(value) < schema.get("minItems", 0):
        out.append(_invalid(path, len(value), f"should have at least {schema['minItems']} items"))
    if "maxItems" in schema and len(value) > schema["maxItems"]:
        message = f"Too many: {len(value)}: must have at most {schema['maxItems']} items"
        out.append(Cause("FieldValueTooMany", message, path))
    items = schema.get("items")
    for i, item in enumerate(value):
        out += validate(item, items, f"{path}[{i}]") if isinstance(items, dict) else []
    return out


def _object_errors(value: JSON, schema: JSON, path: str) -> list[Cause]:
    out = [
        Cause("FieldValueRequired", "Required value", child_path(path, key))
        for key in schema.get("required") or []
        if key not in value
    ]
    props, extra = schema.get("properties") or {}, schema.get("additionalProperties")
    for key, item in value.items():
        if key in props:
            out += validate(item, props[key], child_path(path, key))
        elif isinstance(extra, dict):
            out += validate(item, extra, f"{path}[{key}]")
    return out


def _combinator_errors(value: Any, schema: JSON, path: str) -> list[Cause]:
    out: list[Cause] = []
    for sub in schema.get("allOf") or []:
        out += validate(value, sub, path)
    for word, subs in (("anyOf", schema.get("anyOf")), ("oneOf", schema.get("oneOf"))):
        if subs:
            passing = sum(1 for sub in subs if not validate(value, sub, path))
            if passing == 0 or (word == "oneOf" and passing > 1):
                out.append(_invalid(path, value, f"must validate {word} schemas"))
    if isinstance(schema.get("not"), dict) and not validate(value, schema["not"], path):
        out.append(_invalid(path, value, "must not validate the schema (not)"))
    return out


def validate(value: Any, schema: JSON, path: str = "") -> list[Cause]:
    """All field errors of `value` against `schema` (empty list: valid)."""
    if errors := _type_errors(value, schema, path):
        return errors
    out = _combinator_errors(value, schema, path)
    if "enum" in schema and value not in schema["enum"]:
        allowed = ", ".join(_show(v) for v in schema["enum"])
        message = f"Unsupported value: {_show(value)}: supported values: {allowed}"
        out.append(Cause("FieldValueNotSupported", message, path))
    if isinstance(value, str):
        out += _string_errors(value, schema, path)
    elif isinstance(value, int | float) and not isinstance(value, bool):
        out += _number_errors(value, schema, path)
    elif isinstance(value, list):
        out += _array_errors(value, schema, path)
    elif isinstance(value, dict):
        out += _object_errors(value, schema, path)
    return out
