"""IPAM objects (ipam.metal3.io/v1alpha1): IPPool, IPClaim, IPAddress."""

from __future__ import annotations

from typing import ClassVar

from pydantic import Field

from dhcpless.models.base import K8sModel, K8sObject
from dhcpless.models.meta import ObjectMeta, ObjectReference

_API_VERSION = "ipam.metal3.io/v1alpha1"


class PoolEntry(K8sModel):
    """spec.pools[]: entry-level prefix/gateway/dnsServers override the spec's."""

    start: str | None = None
    end: str | None = None
    subnet: str | None = None
    prefix: int | None = None
    gateway: str | None = None
    dns_servers: tuple[str, ...] | None = None


class IPPoolSpec(K8sModel):
    name_prefix: str = ""
    pools: tuple[PoolEntry, ...] = ()
    prefix: int | None = None
    gateway: str | None = None
    dns_servers: tuple[str, ...] | None = None
    pre_allocations: dict[str, str] = Field(default_factory=dict)
    cluster_name: str | None = None
    allocation_strategy: str | None = None


class IPPoolStatus(K8sModel):
    indexes: dict[str, str] = Field(default_factory=dict)
    last_updated: str | None = None


class IPPool(K8sObject):
    KIND: ClassVar[str] = "IPPool"

    api_version: str = _API_VERSION
    kind: str = "IPPool"
    metadata: ObjectMeta = Field(default_factory=ObjectMeta)
    spec: IPPoolSpec = Field(default_factory=IPPoolSpec)
    status: IPPoolStatus = Field(default_factory=IPPoolStatus)


class IPClaimSpec(K8sModel):
    pool: ObjectReference


class IPClaimStatus(K8sModel):
    address: ObjectReference | None = None
    error_message: str | None = None


class IPClaim(K8sObject):
    KIND: ClassVar[str] = "IPClaim"

    api_version: str = _API_VERSION
    kind: str = "IPClaim"
    metadata: ObjectMeta = Field(default_factory=ObjectMeta)
    spec: IPClaimSpec
    status: IPClaimStatus = Field(default_factory=IPClaimStatus)


class IPAddressSpec(K8sModel):
    address: str
    prefix: int | None = None
    gateway: str | None = None
    dns_servers: tuple[str, ...] = ()
    pool: ObjectReference = Field(default_factory=ObjectReference)
    claim: ObjectReference = Field(default_factory=ObjectReference)


class IPAddress(K8sObject):
    KIND: ClassVar[str] = "IPAddress"

    api_version: str = _API_VERSION
    kind: str = "IPAddress"
    metadata: ObjectMeta = Field(default_factory=ObjectMeta)
    spec: IPAddressSpec
