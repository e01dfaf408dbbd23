"""The resources the adapter reads and writes, as data: one descriptor per kind.

A descriptor says where a kind lives (group, version, plural, namespaced) and how an answer
becomes a model, so the generic operations (`kube.api.generic`) need no per-kind code. Paths are
built as client-go's dynamic client builds them (kubernetes/client-go `dynamic/simple.go`,
`dynamicResourceClient.makeURLSegments`: `/api/v1` for the core group, else
`/apis/<group>/<version>`, then `namespaces/<ns>/` when namespaced, the plural and the name).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from dhcpless import keys
from dhcpless.models import (
    BareMetalHost,
    CapiIPAddress,
    IPAddress,
    IPAddressClaim,
    IPClaim,
    IPPool,
    Metal3MachineTemplate,
    NetworkTemplate,
    Secret,
    network_template_from_k8s,
)
from dhcpless.models.base import K8sObject
from dhcpless.models.capm3 import Metal3Data
from dhcpless.models.configmap import ConfigMap
from dhcpless.models.namespace import Namespace
from dhcpless.models.refs import TemplateKind

M = TypeVar("M", bound=K8sObject)
Raw = Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Resource(Generic[M]):
    """One kind: where the API serves it and how its objects are parsed."""

    kind: str
    group: str
    version: str
    plural: str
    parse: Callable[[Raw], M]
    namespaced: bool = True
    label: str = ""
    """How messages name it when `kind` alone is ambiguous (two kinds called IPAddress)."""

    @property
    def api_version(self) -> str:
        return f"{self.group}/{self.version}" if self.group else self.version

    def path(self, namespace: str | None, named: bool) -> str:
        """The URL path template (`{namespace}`, `{name}` filled by the client)."""
        root = f"/apis/{self.group}/{self.version}" if self.group else f"/api/{self.version}"
        scope = "/namespaces/{namespace}" if self.namespaced and namespace is not None else ""
        return f"{root}{scope}/{self.plural}" + ("/{name}" if named else "")

    def what(self, namespace: str | None, name: str = "") -> str:
        """The object (or the collection) in messages: `IPClaim ns/h-pool`, `IPClaims in ns`."""
        label, where = self.label or self.kind, namespace if self.namespaced else None
        if name:
            return f"{label} {where}/{name}" if where else f"{label} {name}"
        return f"{label}s in {where or 'all namespaces'}" if self.namespaced else f"{label}s"


def _ipam(kind: str, plural: str, parse: Callable[[Raw], M]) -> Resource[M]:
    return Resource(kind, keys.IPAM_GROUP, keys.IPAM_VERSION, plural, parse)


def _capm3(kind: str, plural: str, parse: Callable[[Raw], M]) -> Resource[M]:
    return Resource(kind, keys.CAPM3_GROUP, keys.CAPM3_VERSION, plural, parse)


@dataclass(frozen=True, slots=True)
class Versioned(Generic[M]):
    """A kind served at several versions, the preferred first (Cluster API: v1beta2, and
    v1beta1, deprecated but the only version of older installations). Read through the same
    generic operations as any kind, at the version the server serves (`kube.api.versions`)."""

    kind: str
    group: str
    versions: tuple[str, ...]
    plural: str
    parse: Callable[[Raw], M]
    label: str = ""

    def at(self, version: str) -> Resource[M]:
        """The descriptor at one version (one of `versions`)."""
        return Resource(self.kind, self.group, version, self.plural, self.parse, True, self.label)


CAPI_VERSIONS = ("v1beta2", "v1beta1")
CAPI_GROUP = "cluster.x-k8s.io"


HOSTS = Resource(
    "BareMetalHost", keys.BMO_GROUP, keys.BMO_VERSION, "baremetalhosts", BareMetalHost.from_k8s
)
IPPOOLS = _ipam("IPPool", "ippools", IPPool.from_k8s)
IPCLAIMS = _ipam("IPClaim", "ipclaims", IPClaim.from_k8s)
IPADDRESSES = _ipam("IPAddress", "ipaddresses", IPAddress.from_k8s)
MACHINE_TEMPLATES = _capm3(
    "Metal3MachineTemplate", "metal3machinetemplates", Metal3MachineTemplate.from_k8s
)
METAL3DATAS = _capm3("Metal3Data", "metal3datas", Metal3Data.from_k8s)
CAPI_IPAM_CLAIMS = Versioned(
    "IPAddressClaim",
    keys.CAPI_IPAM_GROUP,
    CAPI_VERSIONS,
    "ipaddressclaims",
    IPAddressClaim.from_k8s,
)
CAPI_IPAM_ADDRESSES = Versioned(
    "IPAddress", keys.CAPI_IPAM_GROUP, CAPI_VERSIONS, "ipaddresses", CapiIPAddress.from_k8s,
    f"IPAddress.{keys.CAPI_IPAM_GROUP}",
)  # fmt: skip
CLUSTERS = Versioned("Cluster", CAPI_GROUP, CAPI_VERSIONS, "clusters", K8sObject.from_k8s)
"""Only whether one exists is read (`kube.api.capi.cluster_exists`)."""
CAPI_CLAIMS = CAPI_IPAM_CLAIMS.at(keys.CAPI_IPAM_VERSION)
CAPI_ADDRESSES = CAPI_IPAM_ADDRESSES.at(keys.CAPI_IPAM_VERSION)
SECRETS = Resource("Secret", "", "v1", "secrets", Secret.from_k8s)
NAMESPACES = Resource("Namespace", "", "v1", "namespaces", Namespace.from_k8s, namespaced=False)
CONFIGMAPS = Resource("ConfigMap", "", "v1", "configmaps", ConfigMap.from_k8s)
TEMPLATES: dict[TemplateKind, Resource[NetworkTemplate]] = {
    plural: _capm3(plural.kind, plural.value, network_template_from_k8s) for plural in TemplateKind
}
"""Either template kind a host may point at (`models.refs.TemplateRef`)."""

ALL: tuple[Resource[Any], ...] = (
    HOSTS, IPPOOLS, IPCLAIMS, IPADDRESSES, MACHINE_TEMPLATES, METAL3DATAS, CAPI_CLAIMS,
    CAPI_ADDRESSES, SECRETS, NAMESPACES, CONFIGMAPS, *TEMPLATES.values(),
)  # fmt: skip
"""Every descriptor (tests walk it: each maps a missing object to `Gone`)."""

EVENTS = Resource("Event", "", "v1", "events", K8sObject.from_k8s)
"""core/v1 Events, written as plain bodies (`kube.events.recorder` owns their shape), never read."""
