"""Address, route and DNS rules, checked on the rendered networks.

* **Address** (static ipv4/ipv6): `ip_address` is an address of the network's family,
  `netmask` a contiguous mask of that family with prefix 1 or more, and together they
  form a usable host interface. Rejected: unspecified, loopback and multicast addresses;
  for IPv4 prefixes up to /30 the network and broadcast addresses (/31 and /32 have
  neither, RFC 3021); for IPv6 prefixes up to /126 the all-zero host part, which is
  the Subnet-Router anycast address (RFC 4291 §2.6.1; /127 and /128 are exempt, RFC 6164).
* **Route**: `network`/`netmask` is a network of the family with no host bits set; the
  gateway is present, of the family, and on-link: inside the subnet of the network the
  route belongs to and not the host's own address. The default route (`/0`) is held
  to the same rule. Routes of DHCP/SLAAC networks have no known subnet, so only the
  gateway's family is checked there.
* **DNS**: every `dns` service (global and per route) is an IP address that is neither
  unspecified nor multicast.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterator

from dhcpless.keys import ValidationRule
from dhcpless.render.ipnet import IPInterface, family, interface, mask_prefix, parse_ip
from dhcpless.render.osdoc import OsDocument, OsNetwork, OsRoute, OsService
from dhcpless.render.problem import Problem

_ADDR, _ROUTE = ValidationRule.ADDRESS, ValidationRule.ROUTE


def _host_defect(iface: IPInterface) -> str | None:
    ip, net = iface.ip, iface.network
    if ip.is_unspecified or ip.is_loopback or ip.is_multicast:
        return "is not a host address"
    if ip.version == 4 and net.prefixlen <= 30:
        if ip == net.network_address:
            return f"is the network address of {net}"
        if ip == net.broadcast_address:
            return f"is the broadcast address of {net}"
    if ip.version == 6 and net.prefixlen <= 126 and ip == net.network_address:
        return f"is the Subnet-Router anycast address of {net}"
    return None


def _address_defect(net: OsNetwork) -> str | None:
    fam = family(net.version)
    if parse_ip(net.ip_address, net.version) is None:
        return f'ip_address "{net.ip_address}" is not an {fam} address'
    if not net.netmask:
        return f"ip_address {net.ip_address} has no netmask (the IPAddress has no prefix)"
    prefix = mask_prefix(net.netmask, net.version)
    if prefix is None:
        return f'netmask "{net.netmask}" is not an {fam} netmask'
    if prefix == 0:
        return f"netmask {net.netmask} (prefix 0) leaves {net.ip_address} without a subnet"
    iface = interface(net.ip_address, net.netmask, net.version)
    defect = None if iface is None else _host_defect(iface)
    return None if defect is None else f"{net.ip_address}/{prefix} {defect}"


def address_problems(doc: OsDocument) -> Iterator[Problem]:
    """ADDRESS: every static network's address lies inside a real subnet."""
    for index, net in enumerate(doc.networks):
        defect = _address_defect(net) if net.is_static else None
        if defect is not None:
            yield Problem(_ADDR, f'network "{net.id}": {defect}', f"networks[{index}]")


def _destination_defect(route: OsRoute, version: int) -> str | None:
    prefix = mask_prefix(route.netmask, version)
    if parse_ip(route.network, version) is None or prefix is None:
        return f"is not an {family(version)} network"
    try:
        ipaddress.ip_network(f"{route.network}/{prefix}")
    except ValueError:
        return "has host bits set"
    return None


def _gateway_defect(route: OsRoute, net: OsNetwork) -> str | None:
    gateway = parse_ip(route.gateway, net.version)
    if not route.gateway:
        return "has no gateway"
    if gateway is None:
        return f'gateway "{route.gateway}" is not an {family(net.version)} address'
    own = interface(net.ip_address, net.netmask, net.version) if net.is_static else None
    if own is not None and (gateway not in own.network or gateway == own.ip):
        return f"gateway {gateway} is not on-link in {own.network}"
    return None


def _route_problem(route: OsRoute, net: OsNetwork, path: str) -> Problem | None:
    prefix = mask_prefix(route.netmask, net.version)
    label = "default route" if prefix == 0 else "route"
    where = f'network "{net.id}": {label} {route.network}/{prefix if prefix is not None else "?"}'
    defect = _destination_defect(route, net.version) or _gateway_defect(route, net)
    return None if defect is None else Problem(_ROUTE, f"{where} {defect}", path)


def route_problems(doc: OsDocument) -> Iterator[Problem]:
    """ROUTE: destinations are networks; gateways are on-link in their network."""
    for index, net in enumerate(doc.networks):
        for at, route in enumerate(net.routes):
            problem = _route_problem(route, net, f"networks[{index}].routes[{at}]")
            if problem is not None:
                yield problem


def _dns_problem(service: OsService, where: str, path: str) -> Problem | None:
    if service.type != "dns":
        return None
    address = parse_ip(service.address)
    if address is not None and not (address.is_unspecified or address.is_multicast):
        return None
    message = f'{where}: DNS server "{service.address}" is not usable'
    return Problem(ValidationRule.DNS, message, path)


def _dns_services(doc: OsDocument) -> Iterator[tuple[OsService, str, str]]:
    """Each service, where it is said to be, and its JSON path."""
    yield from ((s, "services", f"services[{i}]") for i, s in enumerate(doc.services))
    for n, net in enumerate(doc.networks):
        for r, route in enumerate(net.routes):
            where, path = f'network "{net.id}" route {route.network}', f"networks[{n}].routes[{r}]"
            yield from ((s, where, f"{path}.services[{i}]") for i, s in enumerate(route.services))


def dns_problems(doc: OsDocument) -> Iterator[Problem]:
    """DNS: global and per-route DNS servers are unicast IP addresses."""
    for service, where, path in _dns_services(doc):
        if (problem := _dns_problem(service, where, path)) is not None:
            yield problem
