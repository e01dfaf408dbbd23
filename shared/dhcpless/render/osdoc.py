"""The rendered OpenStack network_data document, parsed once into typed values.

Validation and the nmstate conversion both read the renderer's output (or a Secret's
`networkData`) rather than the template, so what they check or convert is exactly what
the ramdisk will read. Keys are snake_case as in network_data.json. Links keep unknown
keys: a bond's parameters arrive as extra `bond_<name>` keys, in the order rendered.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, JsonValue, ValidationError

from dhcpless.keys import LinkKind, OpenStackNetworkType
from dhcpless.models.base import ModelError

_STRUCTURED_BOND_KEYS = frozenset({"bond_mode", "bond_xmit_hash_policy", "bond_links"})


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore")


class OsService(_Frozen):
    type: str
    address: str = ""


class OsRoute(_Frozen):
    network: str = ""
    netmask: str = ""
    gateway: str = ""
    services: tuple[OsService, ...] = ()


class OsNetwork(_Frozen):
    type: OpenStackNetworkType
    id: str
    link: str
    ip_address: str = ""
    netmask: str = ""
    routes: tuple[OsRoute, ...] = ()

    @property
    def is_static(self) -> bool:
        """ipv4/ipv6: an address from a pool, as opposed to DHCP or SLAAC."""
        return self.type in (OpenStackNetworkType.IPV4, OpenStackNetworkType.IPV6)

    @property
    def version(self) -> int:
        """4 or 6: the address family of the network, its addresses and its routes."""
        return 4 if self.type in (OpenStackNetworkType.IPV4, OpenStackNetworkType.IPV4_DHCP) else 6


class OsLink(_Frozen):
    model_config = ConfigDict(frozen=True, extra="allow")

    type: str
    id: str
    name: str | None = None
    mtu: int | None = None
    ethernet_mac_address: str | None = None
    vlan_mac_address: str | None = None
    vlan_id: int | None = None
    vlan_link: str | None = None
    bond_mode: str | None = None
    bond_xmit_hash_policy: str | None = None
    bond_links: tuple[str, ...] | None = None

    @property
    def kind(self) -> LinkKind:
        """bond and vlan are virtual; glean treats every other type as a NIC."""
        if self.type == LinkKind.BOND:
            return LinkKind.BOND
        return LinkKind.VLAN if self.type == LinkKind.VLAN else LinkKind.ETHERNET

    @property
    def mac(self) -> str | None:
        """The link's MAC: `vlan_mac_address` on VLANs, `ethernet_mac_address` otherwise."""
        return self.vlan_mac_address if self.kind is LinkKind.VLAN else self.ethernet_mac_address

    @property
    def interface_name(self) -> str:
        """The kernel name a consumer gives the link: `name` when set, else `id`."""
        return self.name or self.id

    @property
    def parents(self) -> tuple[str, ...]:
        """The links this one is built on: a VLAN's `vlan_link`, a bond's `bond_links`."""
        if self.kind is LinkKind.VLAN and self.vlan_link is not None:
            return (self.vlan_link,)
        if self.kind is LinkKind.BOND and self.bond_links is not None:
            return self.bond_links
        return ()

    def bond_parameters(self) -> tuple[tuple[str, JsonValue], ...]:
        """The template's bond `parameters`, without their `bond_` prefix."""
        extra = self.model_extra or {}
        return tuple(
            (key.removeprefix("bond_"), value)
            for key, value in extra.items()
            if key.startswith("bond_") and key not in _STRUCTURED_BOND_KEYS
        )


class OsDocument(_Frozen):
    links: tuple[OsLink, ...] = ()
    networks: tuple[OsNetwork, ...] = ()
    services: tuple[OsService, ...] = ()

    def dns_servers(self) -> tuple[str, ...]:
        """Global DNS servers, then each route's, in document order, without repeats."""
        route_services = (s for n in self.networks for r in n.routes for s in r.services)
        every = (*self.services, *route_services)
        return tuple(dict.fromkeys(s.address for s in every if s.type == "dns"))


def parse_rendered(doc: Mapping[str, Any]) -> OsDocument:
    """Parse network_data.json; the error names the field, never the value (it is Secret data)."""
    try:
        return OsDocument.model_validate(doc)
    except ValidationError as err:
        problem = err.errors(include_input=False)[0]
        where = ".".join(str(part) for part in problem["loc"]) or "(document)"
        raise ModelError(f"not OpenStack network data: field {where}: {problem['msg']}") from err
