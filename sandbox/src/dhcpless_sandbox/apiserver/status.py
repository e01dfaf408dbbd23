"""Kubernetes `Status` errors, shaped like kube-apiserver's so clients parse them as usual.

Every failure the sandbox answers is an `ApiError` carrying the exact Status body. The
constructors below copy the message shapes of apimachinery's `errors.New*` helpers, because
clients (kubectl, the Python client, our own adapter) match on `reason` and `code`, and people
read `message`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

JSON = dict[str, Any]


@dataclass(frozen=True)
class Cause:
    """One `details.causes[]` entry: which field, why, and the human message."""

    reason: str
    message: str
    field: str = ""

    def to_json(self) -> JSON:
        out = {"reason": self.reason, "message": self.message}
        return {**out, "field": self.field} if self.field else out


@dataclass(frozen=True)
class GroupResource:
    """Names a resource the way error messages do: `baremetalhosts.metal3.io`, `secrets`."""

    group: str
    resource: str

    def __str__(self) -> str:
        return f"{self.resource}.{self.group}" if self.group else self.resource


class ApiError(Exception):
    """An API failure answered as a Kubernetes Status object with `code` as HTTP status."""

    def __init__(
        self,
        code: int,
        reason: str,
        message: str,
        details: JSON | None = None,
        causes: tuple[Cause, ...] = (),
    ) -> None:
        super().__init__(message)
        self.code, self.reason, self.message = code, reason, message
        self.details = dict(details or {})
        self.causes = causes

    def status(self) -> JSON:
        """The `Status` body, exactly as kube-apiserver would send it."""
        body: JSON = {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure"}
        body |= {"message": self.message, "reason": self.reason, "code": self.code}
        details = {k: v for k, v in self.details.items() if v}
        if self.causes:
            details["causes"] = [c.to_json() for c in self.causes]
        return body | ({"details": details} if details else {})

    def body(self) -> bytes:
        return json.dumps(self.status()).encode()


@dataclass(frozen=True)
class _Details:
    name: str = ""
    group: str = ""
    kind: str = ""
    extra: JSON = field(default_factory=dict)

    def to_json(self) -> JSON:
        return {"name": self.name, "group": self.group, "kind": self.kind, **self.extra}


def _about(gr: GroupResource, name: str) -> JSON:
    return _Details(name, gr.group, gr.resource).to_json()


def not_found(gr: GroupResource, name: str) -> ApiError:
    return ApiError(404, "NotFound", f'{gr} "{name}" not found', _about(gr, name))


def already_exists(gr: GroupResource, name: str) -> ApiError:
    return ApiError(409, "AlreadyExists", f'{gr} "{name}" already exists', _about(gr, name))


def conflict(gr: GroupResource, name: str, why: str) -> ApiError:
    message = f'Operation cannot be fulfilled on {gr} "{name}": {why}'
    return ApiError(409, "Conflict", message, _about(gr, name))


STALE = (
    "the object has been modified; please apply your changes to the latest version and try again"
)


def invalid(kind: str, group: str, name: str, causes: list[Cause]) -> ApiError:
    """422 Invalid: `Kind.group "name" is invalid: field: message[, ...]`."""
    qualified = f"{kind}.{group}" if group else kind
    parts = [f"{c.field}: {c.message}" if c.field else c.message for c in causes]
    joined = parts[0] if len(parts) == 1 else "[" + ", ".join(parts) + "]"
    details = _Details(name, group, kind).to_json()
    message = f'{qualified} "{name}" is invalid: {joined}'
    return ApiError(422, "Invalid", message, details, tuple(causes))


def bad_request(message: str) -> ApiError:
    return ApiError(400, "BadRequest", message)


def forbidden(gr: GroupResource, name: str, why: str) -> ApiError:
    subject = f'{gr} "{name}"' if name else str(gr)
    return ApiError(403, "Forbidden", f"{subject} is forbidden: {why}", _about(gr, name))


def expired(message: str) -> ApiError:
    """What a watch from a compacted resourceVersion gets (410, reason Expired)."""
    return ApiError(410, "Expired", message)


def method_not_allowed(verb: str, gr: GroupResource) -> ApiError:
    message = f"the server does not allow this method on the requested resource ({verb} {gr})"
    return ApiError(405, "MethodNotAllowed", message, _Details(group=gr.group).to_json())


def path_not_found() -> ApiError:
    return ApiError(404, "NotFound", "the server could not find the requested resource")


def internal(message: str) -> ApiError:
    return ApiError(500, "InternalError", f"Internal error occurred: {message}")
