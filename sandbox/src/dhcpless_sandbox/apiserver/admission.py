"""Turning a request body into an object fit to store: decode checks, pruning, defaults, schema.

The order is the real server's: check apiVersion/kind, prune undeclared fields (reporting them
for `fieldValidation`), apply defaults, then validate against the schema of the request's
version and answer 422 with every field error at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from dhcpless_sandbox.apiserver import meta, structural, validation
from dhcpless_sandbox.apiserver.kinds import ResourceType
from dhcpless_sandbox.apiserver.status import bad_request, invalid

JSON = dict[str, Any]


class FieldValidation(StrEnum):
    STRICT = "Strict"
    WARN = "Warn"
    IGNORE = "Ignore"


@dataclass(frozen=True)
class WriteOptions:
    """The query parameters every write honours."""

    dry_run: bool = False
    field_validation: FieldValidation = FieldValidation.WARN


def check_identity(body: Any, rt: ResourceType) -> JSON:
    """The body must be an object of this resource's kind in this version (or say nothing)."""
    if not isinstance(body, dict):
        raise bad_request("the body of the request must be a JSON object")
    version, kind = body.get("apiVersion"), body.get("kind")
    if version not in (None, "", rt.api_version):
        raise bad_request(
            f"the API version in the data ({version}) does not match the "
            f"expected API version ({rt.api_version})"
        )
    if kind not in (None, "", rt.kind):
        raise bad_request(
            f"the kind in the data ({kind}) does not match the expected kind ({rt.kind})"
        )
    obj: JSON = {**body, "apiVersion": rt.api_version, "kind": rt.kind}
    obj["metadata"] = dict(body.get("metadata") or {})
    meta.check_meta_types(obj["metadata"])
    meta.coerce_nulls(obj["metadata"])
    return obj


def admit(obj: JSON, rt: ResourceType, options: WriteOptions) -> list[str]:
    """Prune, default and validate `obj` in place; return warnings (unknown fields on Warn)."""
    warnings = decode(obj, rt, options)
    validate(obj, rt)
    return warnings


def decode(obj: JSON, rt: ResourceType, options: WriteOptions) -> list[str]:
    """What decoding does: unknown fields dropped (strict: refused), pruned, defaulted;
    returns the warnings (unknown fields on Warn)."""
    unknown = [f"metadata.{k}" for k in obj["metadata"] if k not in meta.OBJECT_META_KEYS]
    for key in unknown:
        del obj["metadata"][key.removeprefix("metadata.")]
    if rt.schema is not None:
        structural.prune(obj, rt.schema, "", unknown)
        structural.default(obj, rt.schema)
    if unknown and options.field_validation is FieldValidation.STRICT:
        fields = ", ".join(f'unknown field "{path}"' for path in unknown)
        raise bad_request(
            f'{rt.kind} in version "{rt.version}" cannot be handled as a '
            f"{rt.kind}: strict decoding error: {fields}"
        )
    if options.field_validation is FieldValidation.IGNORE:
        return []
    return [f'unknown field "{path}"' for path in unknown]


def validate(obj: JSON, rt: ResourceType) -> None:
    """After admission: pruned and defaulted again (a mutation may add either), then the
    schema's rules (apiextensions-apiserver defaults again after mutating admission)."""
    if rt.schema is None:
        return
    structural.prune(obj, rt.schema, "", [])
    structural.default(obj, rt.schema)
    if causes := validation.validate(obj, rt.schema):
        raise invalid(rt.kind, rt.group, obj["metadata"].get("name", ""), causes)
