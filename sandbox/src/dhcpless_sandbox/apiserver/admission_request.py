"""What an admission plugin sees of a write, and the plugin slots of the admission chain.

The real server runs mutating admission after decoding and defaulting, then validates the
object (schema, strategy), then runs validating admission (kubernetes/apiserver
`pkg/admission/chain.go`, `pkg/endpoints/handlers/create.go`). `Api` keeps that order:
`Plugins.mutate`, then `admission.admit` (prune, default, schema), then `Plugins.validate`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol

from dhcpless_sandbox.apiserver.kinds import ResourceType

JSON = dict[str, Any]


class Operation(StrEnum):
    CREATE = "CREATE"
    UPDATE = "UPDATE"


@dataclass(frozen=True)
class AdmissionRequest:
    """One create or update; `obj` is the object being written and may be changed in place."""

    rt: ResourceType
    namespace: str
    obj: JSON
    old: JSON | None = None
    subresource: str = ""
    dry_run: bool = False

    @property
    def operation(self) -> Operation:
        return Operation.CREATE if self.old is None else Operation.UPDATE

    @property
    def name(self) -> str:
        """The object's name, or its generateName prefix (admission.NewForbidden does the same)."""
        meta = self.obj.get("metadata") or {}
        return str(meta.get("name") or meta.get("generateName") or "")

    def as_cel(self) -> JSON:
        """The `request` variable of CEL admission expressions (AdmissionRequest fields)."""
        rt = self.rt
        return {
            "operation": self.operation.value,
            "name": self.name,
            "namespace": self.namespace,
            "kind": {"group": rt.group, "version": rt.version, "kind": rt.kind},
            "resource": {"group": rt.group, "version": rt.version, "resource": rt.plural},
            "subResource": self.subresource,
            "dryRun": self.dry_run,
            "userInfo": {},
        }


class Plugin(Protocol):
    def mutate(self, request: AdmissionRequest) -> None: ...

    def validate(self, request: AdmissionRequest) -> list[str]: ...


@dataclass
class Plugins:
    """The admission plugins installed on an `Api` (none by default)."""

    installed: list[Plugin] = field(default_factory=list)

    def mutate(self, request: AdmissionRequest) -> None:
        for plugin in self.installed:
            plugin.mutate(request)

    def validate(self, request: AdmissionRequest) -> list[str]:
        """Warnings for the response (a Warn validation action)."""
        return [w for plugin in self.installed for w in plugin.validate(request)]
