"""nmstate desired state, converted from the rendered OpenStack network_data.

Built from the OpenStack document (not from the template), so both outputs carry the
same MACs, addresses, routes and DNS servers by construction. Mapping:

* interface `name`: the link's `name`, else its `id`; `vlan_link`, `bond_links` and
  `networks[].link` references become interface names the same way.
* NIC link (any type but bond/vlan): `type: ethernet`, `identifier: mac-address` and
  `mac-address`, so the profile binds to the NIC with that MAC whatever its kernel name.
* bond link: `type: bond`, `link-aggregation: {mode, options, port}`; `options` holds
  `xmit_hash_policy` (when set) then the bond parameters, in rendered order.
* vlan link: `type: vlan`, `vlan: {base-iface, id}`.
* a bond's or VLAN's MAC (`ethernet_mac_address` / `vlan_mac_address`): `mac-address`;
  `mtu`: `mtu`.
* ipv4 / ipv6 networks: `address: [{ip, prefix-length}]` with `dhcp: false` (IPv6 also
  `autoconf: false`); ipv4_dhcp: `ipv4.dhcp: true`; ipv6_dhcp: `ipv6.dhcp: true`,
  `autoconf: false`; ipv6_slaac: `ipv6.autoconf: true` **with** `dhcp: true`, because
  nmstate refuses autoconf without DHCP (NetworkManager then runs DHCPv6 only when the
  router advertisements ask for it). Several networks on one link merge into one block.
* a link with no network of a family: `enabled: false` for that family.
* each network's routes: `routes.config[]` with `destination` `<network>/<prefix>`,
  `next-hop-address` (left out when the gateway is empty) and `next-hop-interface`, the
  interface the network sits on.
* global then per-route DNS services: `dns-resolver.config.server`, without repeats.

Every interface is `state: up`. Interfaces keep the links' order; empty `routes` and
`dns-resolver` sections are left out. `dump_nmstate` writes YAML in that key order.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import yaml

from dhcpless.keys import LinkKind, OpenStackNetworkType
from dhcpless.models.bmh import BareMetalHost
from dhcpless.models.netdata import NetworkData
from dhcpless.render.address import Address
from dhcpless.render.errors import RenderError
from dhcpless.render.ipnet import family, mask_prefix
from dhcpless.render.openstack import render_network_data
from dhcpless.render.osdoc import OsDocument, OsLink, OsNetwork, parse_rendered

_T = OpenStackNetworkType


def _prefix(netmask: str, version: int, where: str) -> int:
    prefix = mask_prefix(netmask, version)
    if prefix is None:
        raise RenderError(f'{where}: netmask "{netmask}" is not an {family(version)} netmask')
    return prefix


def _addresses(nets: list[OsNetwork]) -> list[dict[str, Any]]:
    return [
        {"ip": n.ip_address, "prefix-length": _prefix(n.netmask, n.version, f'network "{n.id}"')}
        for n in nets
        if n.is_static
    ]


def _ip_block(nets: list[OsNetwork], version: int) -> dict[str, Any]:
    mine = [n for n in nets if n.version == version]
    if not mine:
        return {"enabled": False}
    kinds = {n.type for n in mine}
    block: dict[str, Any] = {"enabled": True}
    if version == 4:
        block["dhcp"] = _T.IPV4_DHCP in kinds
    else:
        block["dhcp"] = bool(kinds & {_T.IPV6_DHCP, _T.IPV6_SLAAC})
        block["autoconf"] = _T.IPV6_SLAAC in kinds
    if addresses := _addresses(mine):
        block["address"] = addresses
    return block


def _kind_fields(link: OsLink, names: Mapping[str, str]) -> dict[str, Any]:
    if link.kind is LinkKind.BOND:
        options: dict[str, Any] = {}
        if link.bond_xmit_hash_policy:
            options["xmit_hash_policy"] = link.bond_xmit_hash_policy
        options.update(link.bond_parameters())
        ports = [names.get(ref, ref) for ref in link.bond_links or ()]
        aggregation = {"mode": link.bond_mode, "options": options, "port": ports}
        return {"link-aggregation": aggregation}
    if link.kind is LinkKind.VLAN:
        parent = link.vlan_link or ""
        return {"vlan": {"base-iface": names.get(parent, parent), "id": link.vlan_id}}
    return {}


def _interface(link: OsLink, nets: list[OsNetwork], names: Mapping[str, str]) -> dict[str, Any]:
    kind = link.kind
    iface: dict[str, Any] = {"name": link.interface_name, "type": str(kind), "state": "up"}
    if kind is LinkKind.ETHERNET and link.mac is not None:
        iface["identifier"] = "mac-address"
    if link.mac is not None:
        iface["mac-address"] = link.mac
    if link.mtu is not None:
        iface["mtu"] = link.mtu
    iface.update(_kind_fields(link, names))
    iface["ipv4"] = _ip_block(nets, 4)
    iface["ipv6"] = _ip_block(nets, 6)
    return iface


def _routes(doc: OsDocument, names: Mapping[str, str]) -> list[dict[str, Any]]:
    routes: list[dict[str, Any]] = []
    for net in doc.networks:
        for route in net.routes:
            where = f'network "{net.id}" route {route.network}'
            entry: dict[str, Any] = {
                "destination": f"{route.network}/{_prefix(route.netmask, net.version, where)}"
            }
            if route.gateway:
                entry["next-hop-address"] = route.gateway
            entry["next-hop-interface"] = names.get(net.link, net.link)
            routes.append(entry)
    return routes


def link_names(doc: OsDocument) -> dict[str, str]:
    """Reference (link id, or a link's name) → interface name; ids take precedence."""
    by_name = {link.name: link.name for link in doc.links if link.name}
    return {**by_name, **{link.id: link.interface_name for link in doc.links}}


def openstack_to_nmstate(rendered: Mapping[str, Any]) -> dict[str, Any]:
    """The nmstate document for a rendered network_data (ModelError/RenderError if unusable)."""
    doc = parse_rendered(rendered)
    names = link_names(doc)

    def networks_of(link: OsLink) -> list[OsNetwork]:
        return [n for n in doc.networks if names.get(n.link, n.link) == link.interface_name]

    state: dict[str, Any] = {
        "interfaces": [_interface(link, networks_of(link), names) for link in doc.links]
    }
    if routes := _routes(doc, names):
        state["routes"] = {"config": routes}
    if servers := doc.dns_servers():
        state["dns-resolver"] = {"config": {"server": list(servers)}}
    return state


def render_nmstate(
    network_data: NetworkData | None, host: BareMetalHost, addresses: Mapping[str, Address]
) -> dict[str, Any] | None:
    """Render as CAPM3 would, then convert; None when the template has no networkData."""
    rendered = render_network_data(network_data, host, addresses)
    return None if rendered is None else openstack_to_nmstate(rendered)


class _Dumper(yaml.SafeDumper):
    """Double-quotes every string holding a colon (MACs, IPv6 addresses, routes).

    YAML 1.1 readers take a MAC made of digits only (`10:20:30:40:50:59`) for a
    base-60 integer, and `::/0` as a plain scalar trips some parsers; quoting is
    always read back as the same string.
    """


def _represent_str(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = '"' if ":" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _represent_str)


def dump_nmstate(state: Mapping[str, Any]) -> str:
    """YAML in the document's own key order (stable: the converter fixes that order)."""
    return yaml.dump(dict(state), Dumper=_Dumper, sort_keys=False, default_flow_style=False)
