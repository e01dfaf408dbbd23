"""The shared base of every Kubernetes model, and the one error type parsing raises.

Objects come from the API server, from CloudEvents and from users' YAML files. All
of them may carry fields we do not know (newer API versions, other controllers), so
unknown fields are ignored; but a field we *do* rely on with the wrong shape is an
error that names the kind, the object and the field, so the user can fix it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, Self, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError
from pydantic.alias_generators import to_camel

M = TypeVar("M", bound=BaseModel)


class ModelError(ValueError):
    """A Kubernetes object (or a part of one) does not have the shape we need."""


class K8sModel(BaseModel):
    """Frozen, camelCase-aliased, tolerant of unknown fields."""

    model_config = ConfigDict(
        alias_generator=to_camel,
        populate_by_name=True,
        extra="ignore",
        frozen=True,
    )


def _object_label(kind: str, obj: Mapping[str, Any]) -> str:
    meta = obj.get("metadata")
    if not isinstance(meta, Mapping):
        return kind
    name = meta.get("name") or "?"
    namespace = meta.get("namespace")
    return f"{kind} {namespace}/{name}" if namespace else f"{kind} {name}"


def _first_problem(err: ValidationError) -> str:
    problem = err.errors()[0]
    where = ".".join(str(part) for part in problem["loc"]) or "(object)"
    return f"field {where}: {problem['msg']}"


def parse_k8s(model: type[M], kind: str, obj: Mapping[str, Any]) -> M:
    """Validate `obj` as `model`, turning pydantic's report into one short ModelError."""
    if not isinstance(obj, Mapping):
        raise ModelError(f"{kind}: expected an object, got {type(obj).__name__}")
    try:
        return model.model_validate(obj)
    except ValidationError as err:
        raise ModelError(f"{_object_label(kind, obj)}: {_first_problem(err)}") from err


class K8sObject(K8sModel):
    """A top-level object: knows its kind for error messages and round-trips to a dict."""

    KIND: ClassVar[str] = ""

    @classmethod
    def from_k8s(cls, obj: Mapping[str, Any]) -> Self:
        """Parse a raw Kubernetes object (as returned by the API) into this model."""
        return parse_k8s(cls, cls.KIND or cls.__name__, obj)

    def to_k8s(self) -> dict[str, Any]:
        """The object as the API expects it: camelCase keys, unset fields left out."""
        return self.model_dump(by_alias=True, exclude_none=True, mode="json")
