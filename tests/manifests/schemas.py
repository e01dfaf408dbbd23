"""Validate rendered objects: CRD schemas as JSON Schema, built-in kinds via kubernetes_validate.

The API server silently *prunes* fields a structural schema does not declare, so a typo
such as `containerConcurency` would deploy fine and do nothing. The conversion below
therefore closes every object that declares `properties` (unless the schema says
`x-kubernetes-preserve-unknown-fields`), turning a would-be pruned field into an error.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import jsonschema
import kubernetes_validate

from .support import KUBE_VERSION, SHARED_CRDS, Obj, load_yaml

_COPIED = (
    *("type", "enum", "pattern", "format", "required"),
    *("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"),
    *("minLength", "maxLength", "minItems", "maxItems", "uniqueItems"),
    *("minProperties", "maxProperties"),
)

OBJECT_META: Obj = {
    "type": "object",
    "additionalProperties": False,
    "required": ["name"],
    "properties": {
        "name": {"type": "string", "pattern": "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$", "maxLength": 63},
        "namespace": {"type": "string"},
        "labels": {"type": "object", "additionalProperties": {"type": "string"}},
        "annotations": {"type": "object", "additionalProperties": {"type": "string"}},
    },
}
"""The ObjectMeta subset our custom objects may use (CRD schemas leave metadata open)."""


def to_json_schema(node: Mapping[str, Any]) -> Obj:
    """One structural-schema node as JSON Schema, closed where the API server would prune."""
    out: Obj = {key: node[key] for key in _COPIED if key in node}
    if node.get("x-kubernetes-int-or-string"):
        out["type"] = ["integer", "string"]
    if node.get("nullable") and "type" in out:
        out["type"] = [out["type"], "null"]
    if "properties" in node:
        out["properties"] = {k: to_json_schema(v) for k, v in node["properties"].items()}
        if not node.get("x-kubernetes-preserve-unknown-fields"):
            out["additionalProperties"] = False
    if isinstance(node.get("additionalProperties"), Mapping):
        out["additionalProperties"] = to_json_schema(node["additionalProperties"])
    if "items" in node:
        out["items"] = to_json_schema(node["items"])
    for junctor in ("anyOf", "allOf", "oneOf"):
        if junctor in node:
            out[junctor] = [to_json_schema(branch) for branch in node[junctor]]
    return out


def crd_validator(crd: Obj, version: str) -> jsonschema.Draft7Validator:
    """A validator for whole objects of one CRD version (apiVersion, kind and metadata too)."""
    served = next(v for v in crd["spec"]["versions"] if v["name"] == version)
    schema = to_json_schema(served["schema"]["openAPIV3Schema"])
    names = crd["spec"]["names"]
    schema.setdefault("properties", {}).update(
        apiVersion={"const": f"{crd['spec']['group']}/{version}"},
        kind={"const": names["kind"]},
        metadata=OBJECT_META,
    )
    schema["required"] = sorted({"apiVersion", "kind", "metadata", *schema.get("required", [])})
    schema["additionalProperties"] = False
    return jsonschema.Draft7Validator(schema, format_checker=jsonschema.FormatChecker())


def crd_errors(validator: jsonschema.Draft7Validator, obj: Obj) -> list[str]:
    return [
        f"{'.'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(obj)
    ]


@functools.cache
def upstream_validators() -> dict[tuple[str, str], jsonschema.Draft7Validator]:
    """(apiVersion, kind) -> validator, for every upstream Knative CRD we have."""
    found: dict[tuple[str, str], jsonschema.Draft7Validator] = {}
    for path in sorted((SHARED_CRDS / "knative").glob("*.yaml")):
        found.update(validators_of(path))
    return found


def validators_of(path: Path) -> dict[tuple[str, str], jsonschema.Draft7Validator]:
    """(apiVersion, kind) -> validator for every served version of the CRDs in one file."""
    found = {}
    for crd in load_yaml(path):
        group, kind = crd["spec"]["group"], crd["spec"]["names"]["kind"]
        for version in crd["spec"]["versions"]:
            if version["served"]:
                found[(f"{group}/{version['name']}", kind)] = crd_validator(crd, version["name"])
    return found


def core_errors(obj: Obj) -> list[str]:
    """Errors from the Kubernetes OpenAPI schema of a built-in kind (strict: no unknown fields)."""
    try:
        kubernetes_validate.validate(obj, KUBE_VERSION, strict=True)
    except kubernetes_validate.ValidationError as error:
        return [f"{'.'.join(map(str, error.path))}: {error.message}"]
    return []


PING_SOURCE: Obj = {
    "type": "object",
    "additionalProperties": False,
    "required": ["apiVersion", "kind", "metadata", "spec"],
    "properties": {
        "apiVersion": {"const": "sources.knative.dev/v1"},
        "kind": {"const": "PingSource"},
        "metadata": OBJECT_META,
        "spec": {
            "type": "object",
            "additionalProperties": False,
            "required": ["schedule", "sink"],
            "properties": {
                "schedule": {"type": "string", "pattern": r"^\S+( \S+){4}$"},
                "timezone": {"type": "string"},
                "contentType": {"type": "string"},
                "data": {"type": "string"},
                "dataBase64": {"type": "string"},
                "ceOverrides": {"type": "object"},
                "sink": {"type": "object", "minProperties": 1},
            },
        },
    },
}
"""PingSource v1 as we use it, written from the Knative API reference. Its CRD is not among
the upstream files in ../shared/crds/knative/, so this stands in for it."""


def schema_errors(obj: Obj) -> list[str]:
    """Every schema error of one rendered object; an object nobody can check is an error too."""
    key = (obj.get("apiVersion", ""), obj.get("kind", ""))
    if key in upstream_validators():
        return crd_errors(upstream_validators()[key], obj)
    if key == ("sources.knative.dev/v1", "PingSource"):
        return crd_errors(jsonschema.Draft7Validator(PING_SOURCE), obj)
    try:
        return core_errors(obj)
    except kubernetes_validate.SchemaNotFoundError:
        return [f"no schema for {key}"]
