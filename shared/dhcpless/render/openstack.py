"""OpenStack network_data.json, rendered exactly as CAPM3's renderNetworkData.

`links` holds all bonds, then all ethernets, then all vlans; `networks` holds ipv4,
ipv6, ipv4_dhcp, ipv6_dhcp, ipv6_slaac; `services` the static DNS entries then the
`dnsFromIPPool` pool's servers. Every dict is built with its keys in a fixed order,
so the output (and a Secret written from it) is byte-stable for the same input.

One addition to CAPM3's output: every network also carries `network_id`, set to the
network's own `id`. BMO copies this document unchanged into the Ironic node's
`network_data` (baremetal-operator `pkg/provisioner/ironic/register.go`, the block run when
no PreprovisioningImage builder is enabled), and Ironic's API refuses a node update whose
networks lack `network_id` (openstack/ironic `ironic/api/controllers/v1/node.py`
`validate_network_data`). CAPM3 never needed it: a deployed OS's config drive is not checked
against that schema. The network `id` is stable across re-renders (it comes from the
template) and unique per document, and glean ignores `network_id`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dhcpless.models.bmh import BareMetalHost
from dhcpless.models.netdata import (
    DhcpNetwork,
    LinkBond,
    LinkEthernet,
    Links,
    LinkVlan,
    NetworkData,
    Networks,
    Services,
    StaticNetwork,
)
from dhcpless.render.address import Address
from dhcpless.render.errors import RenderError
from dhcpless.render.macs import link_mac_address
from dhcpless.render.objects import annotation_value
from dhcpless.render.routes import POOL_NOT_FOUND, render_routes, route_services, translate_mask

_STRUCTURED_BOND_KEYS = ("bond_mode", "bond_xmit_hash_policy", "bond_links")


def _link_head(kind: str, link: LinkEthernet | LinkBond | LinkVlan) -> dict[str, Any]:
    head: dict[str, Any] = {"type": kind, "id": link.id}
    if link.name:
        head["name"] = link.name
    head["mtu"] = link.mtu
    return head


def _with_mac(entry: dict[str, Any], key: str, mac: str | None) -> dict[str, Any]:
    if mac is not None:
        entry[key] = mac
    return entry


def _bond(link: LinkBond, host: BareMetalHost, single: bool) -> dict[str, Any]:
    mac = link_mac_address(link.mac_address, host, single_ethernet=single)
    entry = _with_mac(_link_head("bond", link), "ethernet_mac_address", mac)
    entry["bond_mode"] = link.bond_mode
    entry["bond_xmit_hash_policy"] = link.bond_xmit_hash_policy
    entry["bond_links"] = None if link.bond_links is None else list(link.bond_links)
    illegal = [p.name for p in link.parameters if f"bond_{p.name}" in entry]
    if illegal:
        names = '", "'.join(illegal)
        raise RenderError(f'illegal params "{names}" into bond params blob into link id={link.id}')
    entry.update((f"bond_{p.name}", p.value) for p in link.parameters)
    return entry


def _ethernet(link: LinkEthernet, host: BareMetalHost, single: bool) -> dict[str, Any]:
    mac = link_mac_address(link.mac_address, host, single_ethernet=single)
    return _with_mac(_link_head(link.type, link), "ethernet_mac_address", mac)


def _vlan(link: LinkVlan, host: BareMetalHost, single: bool) -> dict[str, Any]:
    if link.vlan_id is None:
        raise RenderError(f'renderNetworkLinks: VLAN link "{link.id}" is missing required VlanID')
    mac = link_mac_address(link.mac_address, host, single_ethernet=single)
    entry = _with_mac(_link_head("vlan", link), "vlan_mac_address", mac)
    entry["vlan_id"] = link.vlan_id
    entry["vlan_link"] = link.vlan_link
    return entry


def render_links(links: Links, host: BareMetalHost) -> list[dict[str, Any]]:
    """Bonds, then ethernets, then vlans, each in template order."""
    single = len(links.ethernets) == 1
    return [
        *(_bond(link, host, single) for link in links.bonds),
        *(_ethernet(link, host, single) for link in links.ethernets),
        *(_vlan(link, host, single) for link in links.vlans),
    ]


def _network_address(
    net: StaticNetwork, addresses: Mapping[str, Address], host: BareMetalHost
) -> Address:
    """Pool precedence: fromPoolAnnotation, fromPoolRef, ipAddressFromIPPool."""
    if net.from_pool_annotation is not None:
        name = annotation_value(net.from_pool_annotation, host)
    elif net.from_pool_ref is not None and net.from_pool_ref.name:
        name = net.from_pool_ref.name
    else:
        name = net.ip_address_from_ip_pool
    found = addresses.get(name)
    if found is None:
        raise RenderError(POOL_NOT_FOUND)
    return found


def _static(
    kind: str, net: StaticNetwork, addresses: Mapping[str, Address], host: BareMetalHost
) -> dict[str, Any]:
    address = _network_address(net, addresses, host)
    ipv4 = kind == "ipv4"
    return {
        "type": kind,
        "id": net.id,
        "link": net.link,
        "ip_address": address.address,
        "netmask": translate_mask(address.prefix, ipv4),
        "routes": render_routes(net.routes, addresses, host, ipv4=ipv4),
        "network_id": net.id,
    }


def _dhcp(
    kind: str, net: DhcpNetwork, addresses: Mapping[str, Address], host: BareMetalHost
) -> dict[str, Any]:
    routes = render_routes(net.routes, addresses, host, ipv4=kind == "ipv4_dhcp")
    return {"type": kind, "id": net.id, "link": net.link, "routes": routes, "network_id": net.id}


def render_networks(
    networks: Networks, addresses: Mapping[str, Address], host: BareMetalHost
) -> list[dict[str, Any]]:
    """ipv4, ipv6, ipv4_dhcp, ipv6_dhcp, ipv6_slaac, each in template order."""
    return [
        *(_static("ipv4", net, addresses, host) for net in networks.ipv4),
        *(_static("ipv6", net, addresses, host) for net in networks.ipv6),
        *(_dhcp("ipv4_dhcp", net, addresses, host) for net in networks.ipv4_dhcp),
        *(_dhcp("ipv6_dhcp", net, addresses, host) for net in networks.ipv6_dhcp),
        *(_dhcp("ipv6_slaac", net, addresses, host) for net in networks.ipv6_slaac),
    ]


def render_services(services: Services, addresses: Mapping[str, Address]) -> list[dict[str, Any]]:
    """Static DNS entries, then the dnsFromIPPool pool's DNS servers."""
    return route_services(services, addresses)


def render_network_data(
    network_data: NetworkData | None, host: BareMetalHost, addresses: Mapping[str, Address]
) -> dict[str, list[dict[str, Any]]] | None:
    """The network_data document, or None when the template has no networkData."""
    if network_data is None:
        return None
    return {
        "links": render_links(network_data.links, host),
        "networks": render_networks(network_data.networks, addresses, host),
        "services": render_services(network_data.services, addresses),
    }
