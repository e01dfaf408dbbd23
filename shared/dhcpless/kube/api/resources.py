"""The resources the adapter reads and writes, as data: one descriptor per kind.

A descriptor says where a kind lives (group, version, plural, namespaced) and how an answer
becomes a model, so the generic operations (`kube.generic`) need no per-kind code. Paths are
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


def _capi_ipam(
    kind: str, plural: str, parse: Callable[[Raw], M], label: str = "", version: str = ""
) -> Resource[M]:
    version = version or keys.CAPI_IPAM_VERSION
    return Resource(kind, keys.CAPI_IPAM_GROUP, version, plural, parse, True, label)


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
CAPI_CLAIMS = _capi_ipam("IPAddressClaim", "ipaddressclaims", IPAddressClaim.from_k8s)
CAPI_ADDRESSES = _capi_ipam(
    "IPAddress", "ipaddresses", CapiIPAddress.from_k8s, f"IPAddress.{keys.CAPI_IPAM_GROUP}"
)


def capi_claims(version: str) -> Resource[IPAddressClaim]:
    """IPAddressClaims at the version the server serves (`kube.capi_version`)."""
    return CAPI_CLAIMS if version == CAPI_CLAIMS.version else _CAPI_CLAIMS_AT[version]


def capi_addresses(version: str) -> Resource[CapiIPAddress]:
    """CAPI IPAddresses at the version the server serves (`kube.capi_version`)."""
    return CAPI_ADDRESSES if version == CAPI_ADDRESSES.version else _CAPI_ADDRESSES_AT[version]


_CAPI_CLAIMS_AT = {
    v: _capi_ipam("IPAddressClaim", "ipaddressclaims", IPAddressClaim.from_k8s, version=v)
    for v in ("v1beta2", "v1beta1")
}
_CAPI_ADDRESSES_AT = {
    v: _capi_ipam("IPAddress", "ipaddresses", CapiIPAddress.from_k8s, CAPI_ADDRESSES.label, v)
    for v in ("v1beta2", "v1beta1")
}
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
"""core/v1 Events, written as plain bodies (`kube.recorder` owns their shape), never read."""
