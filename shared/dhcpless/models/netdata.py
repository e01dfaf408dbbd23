"""The `networkData` schema shared by Metal3DataTemplate and Metal3PreprovisioningDataTemplate.

One internal form serves both CAPM3 API versions: v1beta1 writes bond `parameters` as a
map and v1beta2 as a list of `{name, value}`; both become a tuple of BondParameter here,
in the order written. `mtu` defaults to 1500 because the API server would have filled
that in (CRD default) and a renderer fed raw YAML must do the same.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import Field, JsonValue, field_validator

from dhcpless.models.base import K8sModel

DEFAULT_MTU = 1500


class FromAnnotation(K8sModel):
    """`{object, annotation}`: a value read from an annotation on a related object."""

    object: str
    annotation: str


class MacAddress(K8sModel):
    """NetworkLinkEthernetMac: exactly one variant is meant to be set."""

    string: str | None = None
    from_host_interface: str | None = None
    from_annotation: FromAnnotation | None = None


class BondParameter(K8sModel):
    name: str
    value: JsonValue = None


def _normalise_bond_parameters(raw: Any) -> Any:
    """v1beta1 map → v1beta2 list; anything else is left for validation to reject."""
    if isinstance(raw, Mapping):
        return [{"name": key, "value": value} for key, value in raw.items()]
    return raw


class LinkEthernet(K8sModel):
    type: str
    id: str
    name: str | None = None
    mtu: int = DEFAULT_MTU
    mac_address: MacAddress | None = None


class LinkBond(K8sModel):
    bond_mode: str
    bond_xmit_hash_policy: str = ""
    id: str
    name: str | None = None
    mtu: int = DEFAULT_MTU
    mac_address: MacAddress | None = None
    bond_links: tuple[str, ...] | None = None
    parameters: tuple[BondParameter, ...] = ()

    @field_validator("parameters", mode="before")
    @classmethod
    def _accept_map(cls, raw: Any) -> Any:
        return () if raw is None else _normalise_bond_parameters(raw)


class LinkVlan(K8sModel):
    vlan_id: int | None = Field(default=None, alias="vlanID")
    id: str
    name: str | None = None
    mtu: int = DEFAULT_MTU
    mac_address: MacAddress | None = None
    vlan_link: str


class Links(K8sModel):
    ethernets: tuple[LinkEthernet, ...] = ()
    bonds: tuple[LinkBond, ...] = ()
    vlans: tuple[LinkVlan, ...] = ()


class PoolRef(K8sModel):
    """TypedLocalObjectReference to a pool; empty kind/group mean a Metal3 IPPool."""

    name: str = ""
    kind: str = ""
    api_group: str | None = None


class Gateway(K8sModel):
    """Route gateway: literal, or the gateway of this host's address from a pool."""

    string: str | None = None
    from_ip_pool: str | None = Field(default=None, alias="fromIPPool")
    from_pool_ref: PoolRef | None = None
    from_pool_annotation: FromAnnotation | None = None


class RouteServices(K8sModel):
    dns: tuple[str, ...] = ()
    dns_from_ip_pool: str | None = Field(default=None, alias="dnsFromIPPool")


class Route(K8sModel):
    network: str = ""
    prefix: int = Field(default=0, ge=0, le=128)
    gateway: Gateway = Field(default_factory=Gateway)
    services: RouteServices = Field(default_factory=RouteServices)


class StaticNetwork(K8sModel):
    """ipv4[] / ipv6[]: an address claimed from a pool."""

    id: str
    link: str
    ip_address_from_ip_pool: str = Field(default="", alias="ipAddressFromIPPool")
    from_pool_ref: PoolRef | None = None
    from_pool_annotation: FromAnnotation | None = None
    routes: tuple[Route, ...] = ()


class DhcpNetwork(K8sModel):
    """ipv4DHCP[] / ipv6DHCP[] / ipv6SLAAC[]: no pool of their own."""

    id: str
    link: str
    routes: tuple[Route, ...] = ()


class Networks(K8sModel):
    ipv4: tuple[StaticNetwork, ...] = ()
    ipv6: tuple[StaticNetwork, ...] = ()
    ipv4_dhcp: tuple[DhcpNetwork, ...] = Field(default=(), alias="ipv4DHCP")
    ipv6_dhcp: tuple[DhcpNetwork, ...] = Field(default=(), alias="ipv6DHCP")
    ipv6_slaac: tuple[DhcpNetwork, ...] = Field(default=(), alias="ipv6SLAAC")


class Services(K8sModel):
    dns: tuple[str, ...] = ()
    dns_from_ip_pool: str | None = Field(default=None, alias="dnsFromIPPool")


class NetworkData(K8sModel):
    """spec.networkData (or spec.preprovisioningNetworkData): links, networks, services."""

    links: Links = Field(default_factory=Links)
    networks: Networks = Field(default_factory=Networks)
    services: Services = Field(default_factory=Services)
