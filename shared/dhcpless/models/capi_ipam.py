"""Cluster API IPAM objects (ipam.cluster.x-k8s.io/v1beta1): IPAddressClaim and IPAddress.

A template network whose `fromPoolRef` names a non-Metal3 kind is claimed through these, as
CAPM3's `ensureIPClaim`/`addressFromClaim` do (metal3.md §c.5). The fields used here are the
same at v1beta1 and v1beta2; the adapter sends and reads them at the version the API serves
(`kube.api.versions`: v1beta2 first). The CAPI IPAddress has no DNS field (DNS comes from a
Metal3 IPPool of the same name, as in CAPM3 v1.14).
"""

from __future__ import annotations

from typing import ClassVar

from pydantic import Field

from dhcpless import keys
from dhcpless.models.base import K8sModel, K8sObject
from dhcpless.models.meta import ObjectMeta

_API_VERSION = f"{keys.CAPI_IPAM_GROUP}/{keys.CAPI_IPAM_VERSION}"
READY = "Ready"


class TypedLocalObjectReference(K8sModel):
    """`spec.poolRef`: the pool, of any kind an IPAM provider serves."""

    name: str
    kind: str
    api_group: str | None = None


class LocalObjectReference(K8sModel):
    name: str = ""


class Condition(K8sModel):
    type: str
    status: str
    reason: str | None = None
    message: str | None = None


class IPAddressClaimSpec(K8sModel):
    pool_ref: TypedLocalObjectReference


class IPAddressClaimStatus(K8sModel):
    address_ref: LocalObjectReference = Field(default_factory=LocalObjectReference)
    conditions: tuple[Condition, ...] = ()


class IPAddressClaim(K8sObject):
    KIND: ClassVar[str] = "IPAddressClaim"

    api_version: str = _API_VERSION
    kind: str = "IPAddressClaim"
    metadata: ObjectMeta = Field(default_factory=ObjectMeta)
    spec: IPAddressClaimSpec
    status: IPAddressClaimStatus = Field(default_factory=IPAddressClaimStatus)

    @property
    def address_name(self) -> str:
        """The IPAddress the provider made for this claim ("" until it did)."""
        return self.status.address_ref.name

    @property
    def failure(self) -> str | None:
        """`reason: message` of a False Ready condition on a claim without an address: the
        provider gave up on it (e.g. an exhausted pool). None while pending or fulfilled."""
        if self.address_name:
            return None
        for condition in self.status.conditions:
            if condition.type == READY and condition.status == "False" and condition.message:
                return f"{condition.reason or 'NotReady'}: {condition.message}"
        return None


class CapiIPAddressSpec(K8sModel):
    address: str
    prefix: int
    gateway: str | None = None
    claim_ref: LocalObjectReference = Field(default_factory=LocalObjectReference)
    pool_ref: TypedLocalObjectReference | None = None


class CapiIPAddress(K8sObject):
    """CAPI's IPAddress (named apart from Metal3's `IPAddress`, which carries DNS servers)."""

    KIND: ClassVar[str] = "IPAddress"

    api_version: str = _API_VERSION
    kind: str = "IPAddress"
    metadata: ObjectMeta = Field(default_factory=ObjectMeta)
    spec: CapiIPAddressSpec
