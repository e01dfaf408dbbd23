"""`dhcpless render` refuses a template the API server would refuse, with the server's words.

`kubectl apply` validates strictly (`--validate=strict`, the default since 1.27: field
validation `Strict`), so an undeclared field is an error, not a silently pruned typo:
`<Kind> in version "<v>" cannot be handled as a <Kind>: strict decoding error: unknown field
"<path>"` (k8s.io/apimachinery `pkg/runtime/serializer/json`, strict decoding; the prefix is
apiextensions-apiserver's). The schema's own checks (type, enum, required, minimum/maximum) come
out as `<Kind>.<group> "<name>" is invalid: <path>: <reason>` in kube-openapi's shapes
(`pkg/validation/errors`). An unknown field gets the nearest declared name as a suggestion, a
hint the server does not give. The schemas are the project's own CRDs, shipped as package data
(`dhcpless/crds/` and, when the sandbox distribution is installed, its `crds/`, found through
the `dhcpless.crds` entry points; written from the upstream generated CRDs, tests hold them to
`../shared/crds`). Only YAML is read: no sandbox module is imported by name, so this works
without the sandbox. Not evaluated: CEL rules, formats, patterns, lengths.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterator, Mapping
from functools import cache
from importlib.metadata import entry_points
from typing import Any

import yaml

from dhcpless.crds import crd_files

JSON = dict[str, Any]
CRDS_GROUP = "dhcpless.crds"
"""Entry points (a function returning CRD files) of other distributions: the sandbox's
built-in kinds (`sandbox/pyproject.toml`), read without importing the sandbox by name."""
_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "array": (list,),
    "object": (dict,),
}


@cache
def _crds() -> tuple[JSON, ...]:
    theirs = [f for point in entry_points(group=CRDS_GROUP) for f in point.load()()]
    files = [*crd_files(), *theirs]  # the sandbox's: not in the image
    docs = (d for f in files for d in yaml.safe_load_all(f.read_text()))
    return tuple(
        d for d in docs if isinstance(d, dict) and d.get("kind") == "CustomResourceDefinition"
    )


def schema_for(api_version: str, kind: str, crds: tuple[JSON, ...] | None = None) -> JSON | None:
    """The openAPIV3Schema of `kind` at `api_version` (None: a kind or version no CRD serves)."""
    group, _, version = api_version.rpartition("/")
    for crd in _crds() if crds is None else crds:
        spec = crd.get("spec") or {}
        if spec.get("group") != group or (spec.get("names") or {}).get("kind") != kind:
            continue
        for served in spec.get("versions") or []:
            if served.get("name") == version:
                found: JSON = (served.get("schema") or {}).get("openAPIV3Schema") or {}
                return found
    return None


def refusal(doc: Mapping[str, Any], schema: JSON) -> str | None:
    """The API server's refusal of `doc` (the first kind of error it reports), or None."""
    kind, version = str(doc.get("kind")), str(doc.get("apiVersion")).rpartition("/")[2]
    body = {k: v for k, v in doc.items() if k != "metadata"}
    unknown = list(_unknown(body, schema, ""))
    if unknown:
        fields = ", ".join(unknown)
        return (
            f'{kind} in version "{version}" cannot be handled as a {kind}: '
            f"strict decoding error: {fields}"
        )
    invalid = list(_invalid(body, schema, ""))
    if invalid:
        group = str(doc.get("apiVersion")).rpartition("/")[0]
        name = (doc.get("metadata") or {}).get("name", "")
        return f'{kind}.{group} "{name}" is invalid: {", ".join(invalid)}'
    return None


def _child(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _unknown(value: Any, schema: JSON, path: str) -> Iterator[str]:
    """Undeclared fields, as strict decoding names them, each with the nearest declared one."""
    if isinstance(value, list) and isinstance(schema.get("items"), dict):
        for i, item in enumerate(value):
            yield from _unknown(item, schema["items"], f"{path}[{i}]")
        return
    if not isinstance(value, dict) or schema.get("x-kubernetes-preserve-unknown-fields"):
        return
    props: JSON = schema.get("properties") or {}
    extra = schema.get("additionalProperties")
    for key, item in value.items():
        sub = props.get(key, extra if isinstance(extra, dict) else None)
        if sub is not None:
            yield from _unknown(item, sub, _child(path, key))
        elif extra is not True:
            near = difflib.get_close_matches(key, list(props), n=1)
            hint = f' (did you mean "{near[0]}"?)' if near else ""
            yield f'unknown field "{_child(path, key)}"{hint}'


def _invalid(value: Any, schema: JSON, path: str) -> Iterator[str]:
    """Type, enum, required and bounds errors in kube-openapi's words."""
    wanted = schema.get("type")
    if value is None or (wanted and not _is(value, wanted)):
        if value is not None:
            shown = json.dumps(_type_name(value))
            why = f"{path} in body must be of type {wanted}: {shown}"
            yield f"{path}: Invalid value: {shown}: {why}"
        return
    if "enum" in schema and value not in schema["enum"]:
        values = ", ".join(json.dumps(v) for v in schema["enum"])
        yield f"{path}: Unsupported value: {json.dumps(value)}: supported values: {values}"
    yield from _bounds(value, schema, path)
    if isinstance(value, dict):
        props: JSON = schema.get("properties") or {}
        for key in schema.get("required") or []:
            if key not in value:
                yield f"{_child(path, key)}: Required value"
        for key, item in value.items():
            if key in props:
                yield from _invalid(item, props[key], _child(path, key))
    if isinstance(value, list) and isinstance(schema.get("items"), dict):
        for i, item in enumerate(value):
            yield from _invalid(item, schema["items"], f"{path}[{i}]")


def _bounds(value: Any, schema: JSON, path: str) -> Iterator[str]:
    if not isinstance(value, int | float) or isinstance(value, bool):
        return
    if "minimum" in schema and value < schema["minimum"]:
        yield f"{path}: Invalid value: {value}: {path} in body should be greater than or equal to {schema['minimum']}"  # noqa: E501
    if "maximum" in schema and value > schema["maximum"]:
        yield f"{path}: Invalid value: {value}: {path} in body should be less than or equal to {schema['maximum']}"  # noqa: E501


def _is(value: Any, wanted: str) -> bool:
    if isinstance(value, bool) and wanted in ("integer", "number"):
        return False
    if wanted == "integer" and isinstance(value, float) and value.is_integer():
        return True
    return isinstance(value, _TYPES.get(wanted, (object,)))


def _type_name(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    names = {int: "integer", float: "number", str: "string", list: "array", dict: "object"}
    return names.get(type(value), "object")
