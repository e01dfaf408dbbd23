"""Protobuf message classes for the built-in kinds the sandbox serves, built on first use.

Since client-go 1.32 typed clients for built-in kinds send `application/vnd.kubernetes.protobuf`
(kubernetes/client-go `rest/request.go`, `UseProtobufAsDefaultIfPreferred`), and kubectl's
`create secret|namespace|configmap|serviceaccount` and `auth can-i` go through them. The messages
are written here as data (`proto_fields`) and turned into descriptors with the `protobuf`
library, so neither protoc nor generated code is needed.
"""

from __future__ import annotations

import functools
from typing import Any

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

from dhcpless_sandbox.apiserver.proto_fields import MESSAGES

PACKAGE = "dhcpless_sandbox.k8s"
_SCALARS = {
    "string": descriptor_pb2.FieldDescriptorProto.TYPE_STRING,
    "bool": descriptor_pb2.FieldDescriptorProto.TYPE_BOOL,
    "int32": descriptor_pb2.FieldDescriptorProto.TYPE_INT32,
    "int64": descriptor_pb2.FieldDescriptorProto.TYPE_INT64,
    "bytes": descriptor_pb2.FieldDescriptorProto.TYPE_BYTES,
}
_F = descriptor_pb2.FieldDescriptorProto


def _typed(field: Any, type_name: str) -> None:
    if type_name in _SCALARS:
        field.type = _SCALARS[type_name]
    else:
        field.type, field.type_name = _F.TYPE_MESSAGE, f".{PACKAGE}.{type_name}"


def _add_field(message: Any, name: str, number: int, spec: str) -> None:
    field = message.field.add(name=name, number=number, json_name=name)
    field.label = _F.LABEL_REPEATED if spec[0] in "*{" else _F.LABEL_OPTIONAL
    if spec.startswith("{"):
        entry = message.nested_type.add(name=f"{name[0].upper()}{name[1:]}Entry")
        entry.options.map_entry = True
        _typed(entry.field.add(name="key", number=1, label=_F.LABEL_OPTIONAL), "string")
        _typed(entry.field.add(name="value", number=2, label=_F.LABEL_OPTIONAL), spec[1:-1])
        field.type, field.type_name = _F.TYPE_MESSAGE, f".{PACKAGE}.{message.name}.{entry.name}"
    else:
        _typed(field, spec.lstrip("*"))


@functools.cache
def message_class(name: str) -> Any:
    """The generated Python class of one message of `MESSAGES`."""
    pool = _pool()
    return message_factory.GetMessageClass(pool.FindMessageTypeByName(f"{PACKAGE}.{name}"))


@functools.cache
def _pool() -> descriptor_pool.DescriptorPool:
    file = descriptor_pb2.FileDescriptorProto(
        name="dhcpless_sandbox_k8s.proto", package=PACKAGE, syntax="proto2"
    )
    for name, fields in MESSAGES.items():
        message = file.message_type.add(name=name)
        for field_name, number, spec in fields:
            _add_field(message, field_name, number, spec)
    pool = descriptor_pool.DescriptorPool()
    pool.Add(file)
    return pool
