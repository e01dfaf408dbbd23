"""What the server serves: one `ResourceType` per (group, version, resource), in a registry.

Core kinds are registered at start; each served version of a CustomResourceDefinition adds one
more while the CRD exists. Discovery, OpenAPI, routing and validation all read this registry,
so a kind is either fully served or not at all.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from dhcpless_sandbox.apiserver.status import GroupResource

JSON = dict[str, Any]
BUILTIN_GROUPS = frozenset(
    {"", "apiextensions.k8s.io", "authorization.k8s.io", "events.k8s.io"}
    | {"rbac.authorization.k8s.io"}
)
ALL_VERBS = ("create", "delete", "deletecollection", "get", "list", "patch", "update", "watch")


@dataclass(frozen=True)
class PrinterColumn:
    """A CRD `additionalPrinterColumns` entry: what `kubectl get` shows besides NAME."""

    name: str
    type: str
    json_path: str
    description: str = ""
    priority: int = 0
    format: str = ""


@dataclass(frozen=True)
class ResourceType:
    """Everything the server needs to know to serve one resource in one version."""

    group: str
    version: str
    kind: str
    plural: str
    singular: str
    namespaced: bool
    short_names: tuple[str, ...] = ()
    categories: tuple[str, ...] = ()
    status_subresource: bool = False
    schema: JSON | None = None
    columns: tuple[PrinterColumn, ...] = ()
    has_generation: bool = True
    storage_version: str = ""
    verbs: tuple[str, ...] = ALL_VERBS
    selectable_fields: tuple[str, ...] = ()
    extra: JSON = field(default_factory=dict, compare=False)

    @property
    def api_version(self) -> str:
        return f"{self.group}/{self.version}" if self.group else self.version

    @property
    def custom(self) -> bool:
        """Served from a CRD: JSON and YAML bodies only, no strategic merge patch."""
        return self.group not in BUILTIN_GROUPS

    @property
    def group_resource(self) -> GroupResource:
        return GroupResource(self.group, self.plural)

    @property
    def field_labels(self) -> frozenset[str]:
        """Field selectors the server accepts for this resource."""
        return frozenset({"metadata.name", "metadata.namespace", *self.selectable_fields})

    @property
    def storage_key(self) -> tuple[str, str]:
        """Objects of every version of one resource share storage: keyed by group and plural."""
        return (self.group, self.plural)


class Registry:
    """Thread-safe map of served resources; insertion order is kept for stable discovery."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._types: dict[tuple[str, str, str], ResourceType] = {}
        self._generation = 0

    def add(self, rt: ResourceType) -> None:
        with self._lock:
            self._types[(rt.group, rt.version, rt.plural)] = rt
            self._generation += 1

    def remove_resource(self, group: str, plural: str) -> None:
        """Stop serving every version of one resource (its CRD was deleted)."""
        with self._lock:
            for key in [k for k in self._types if k[0] == group and k[2] == plural]:
                del self._types[key]
            self._generation += 1

    def lookup(self, group: str, version: str, plural: str) -> ResourceType | None:
        with self._lock:
            return self._types.get((group, version, plural))

    def by_kind(self, api_version: str, kind: str) -> ResourceType | None:
        return next((t for t in self if t.api_version == api_version and t.kind == kind), None)

    def versions_of(self, group: str, plural: str) -> list[ResourceType]:
        return [t for t in self if t.group == group and t.plural == plural]

    def __iter__(self) -> Iterator[ResourceType]:
        with self._lock:
            return iter(list(self._types.values()))

    @property
    def generation(self) -> int:
        """Changes whenever the served set changes: keys OpenAPI caches and hashes."""
        with self._lock:
            return self._generation

    def group_versions(self) -> dict[str, list[str]]:
        """Group name -> served versions, most preferred first (Kubernetes version priority)."""
        out: dict[str, list[str]] = {}
        for t in self:
            versions = out.setdefault(t.group, [])
            if t.version not in versions:
                versions.append(t.version)
        return {g: sorted(vs, key=version_priority) for g, vs in out.items()}


_VERSION = re.compile(r"^v(\d+)(?:(alpha|beta)(\d+))?$")


def version_priority(version: str) -> tuple[int, int, int, str]:
    """Sort key: GA before beta before alpha, higher numbers first, odd names last."""
    match = _VERSION.match(version)
    if not match:
        return (3, 0, 0, version)
    major, level, minor = match.groups()
    rank = {None: 0, "beta": 1, "alpha": 2}[level]
    return (rank, -int(major), -int(minor or 0), version)
