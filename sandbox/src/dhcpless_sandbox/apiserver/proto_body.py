"""Decoding `application/vnd.kubernetes.protobuf` request bodies into the JSON the verbs use.

The wire form is k8s.io/apimachinery `pkg/runtime/serializer/protobuf/protobuf.go`
(`Serializer.Decode`): the 4-byte prefix `k8s\\0`, then a `runtime.Unknown` whose `typeMeta`
names the kind and whose `raw` is that kind's message. After decoding, the object goes through
the same pipeline as a JSON body, so validation and defaults are the same for both.

Anything the sandbox cannot decode (no prefix, a kind without a message here, a custom
resource, broken bytes) is a 415 with upstream's message (k8s.io/apiserver
`pkg/endpoints/handlers/negotiation/errors.go`, `NewUnsupportedMediaTypeError`): a client then
knows the server does not speak this body, where a 400 would blame the object.
"""

from __future__ import annotations

import base64
import json
from datetime import UTC, datetime
from typing import Any

from google.protobuf.message import DecodeError

from dhcpless_sandbox.apiserver.proto_messages import message_class
from dhcpless_sandbox.apiserver.status import ApiError

JSON = dict[str, Any]
PROTOBUF = "application/vnd.kubernetes.protobuf"
MAGIC = b"k8s\x00"
BODY_TYPES = ("application/json", "application/yaml", PROTOBUF)
"""What the real server accepts for create and update bodies (without the CBOR gate)."""

KINDS: dict[tuple[str, str], str] = {
    ("v1", "Namespace"): "Namespace",
    ("v1", "Secret"): "Secret",
    ("v1", "ConfigMap"): "ConfigMap",
    ("v1", "ServiceAccount"): "ServiceAccount",
    ("v1", "Event"): "Event",
    ("events.k8s.io/v1", "Event"): "EventsV1Event",
    ("authorization.k8s.io/v1", "SelfSubjectAccessReview"): "SelfSubjectAccessReview",
    ("authorization.k8s.io/v1", "SelfSubjectRulesReview"): "SelfSubjectRulesReview",
    ("authentication.k8s.io/v1", "TokenRequest"): "TokenRequest",
    ("rbac.authorization.k8s.io/v1", "Role"): "Role",
    ("rbac.authorization.k8s.io/v1", "ClusterRole"): "ClusterRole",
    ("rbac.authorization.k8s.io/v1", "RoleBinding"): "RoleBinding",
    ("rbac.authorization.k8s.io/v1", "ClusterRoleBinding"): "ClusterRoleBinding",
}
"""(apiVersion, kind) in the envelope -> message name; DeleteOptions is accepted in any group."""


def unsupported(accepted: tuple[str, ...] = BODY_TYPES) -> ApiError:
    """negotiation.NewUnsupportedMediaTypeError: 415 listing what the server takes."""
    message = (
        "the body of the request was in an unknown format - accepted media types include: "
        + ", ".join(accepted)
    )
    return ApiError(415, "UnsupportedMediaType", message)


def envelope(raw: bytes) -> tuple[str, str, bytes]:
    """(apiVersion, kind, message bytes) of a protobuf body; 415 when it is not one."""
    if not raw.startswith(MAGIC):
        raise unsupported()
    unknown = message_class("Unknown")()
    try:
        unknown.ParseFromString(raw[len(MAGIC) :])
    except DecodeError:
        raise unsupported() from None
    return unknown.typeMeta.apiVersion, unknown.typeMeta.kind, bytes(unknown.raw)


def decode(raw: bytes) -> JSON:
    """The object a protobuf body carries, as the JSON a client would have sent."""
    api_version, kind, body = envelope(raw)
    name = "DeleteOptions" if kind == "DeleteOptions" else KINDS.get((api_version, kind))
    if name is None:
        raise unsupported()
    message = message_class(name)()
    try:
        message.ParseFromString(body)
    except DecodeError:
        raise unsupported() from None
    return {"apiVersion": api_version, "kind": kind, **to_json(message)}


def to_json(message: Any) -> JSON:
    """A message as Kubernetes' JSON: only fields that were sent, Go's JSON forms of values."""
    out: JSON = {}
    for field, value in message.ListFields():
        if field.message_type is not None and field.message_type.GetOptions().map_entry:
            out[field.name] = {k: _scalar(v) for k, v in value.items()}
        elif field.is_repeated:
            out[field.name] = [_value(v) for v in value]
        elif (converted := _value(value)) is not None and not _go_empty(field.name, converted):
            out[field.name] = converted
    return out


def _go_empty(name: str, value: Any) -> bool:
    """Go writes its non-pointer zero values ("" and 0) to the wire; its JSON omits them
    (`omitempty`). Of the int fields here only the grace periods are pointers, where 0 counts."""
    if value == "" or value == {}:
        return name not in ("spec", "status", "metadata")
    return type(value) is int and value == 0 and not name.lower().endswith("graceperiodseconds")


def _value(value: Any) -> Any:
    if not hasattr(value, "ListFields"):
        return _scalar(value)
    name = value.DESCRIPTOR.name
    if name in ("Time", "MicroTime"):
        return _time(value, micro=name == "MicroTime")
    if name == "FieldsV1":
        return json.loads(value.Raw) if value.Raw else {}
    return to_json(value)


def _scalar(value: Any) -> Any:
    """bytes are base64 in JSON, as Go's encoding/json writes []byte."""
    return base64.b64encode(value).decode() if isinstance(value, bytes) else value


def _time(value: Any, micro: bool) -> str | None:
    """metav1.Time is RFC 3339 in seconds, MicroTime in microseconds; zero is null."""
    if not value.seconds and not value.nanos:
        return None
    when = datetime.fromtimestamp(value.seconds + value.nanos / 1e9, UTC)
    return when.strftime("%Y-%m-%dT%H:%M:%S.%fZ" if micro else "%Y-%m-%dT%H:%M:%SZ")
