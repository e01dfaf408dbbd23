"""Netmasks and routes, as CAPM3's translateMask and getRoutesv4/getRoutesv6."""

from __future__ import annotations

import ipaddress
from collections.abc import Mapping
from typing import Any

from dhcpless.models.bmh import BareMetalHost
from dhcpless.models.netdata import Gateway, Route, RouteServices, Services
from dhcpless.render.address import Address
from dhcpless.render.errors import RenderError
from dhcpless.render.objects import annotation_value

POOL_NOT_FOUND = "pool not found in cache"
GATEWAY_POOL_NOT_FOUND = "failed to fetch pool from cache"


def translate_mask(prefix: int | None, ipv4: bool) -> str:
    """Prefix length → dotted IPv4 mask or compressed IPv6 mask; "" when unknown."""
    if prefix is None:
        return ""
    limit = 32 if ipv4 else 128
    if not 0 <= prefix <= limit:
        raise RenderError(f"prefix {prefix} out of range for IPv{4 if ipv4 else 6}")
    network = ipaddress.ip_network(f"{'0.0.0.0' if ipv4 else '::'}/{prefix}")
    return str(network.netmask)


def dns_entries(addresses: tuple[str, ...]) -> list[dict[str, Any]]:
    """`{"type": "dns", "address": ...}` objects, in order."""
    return [{"type": "dns", "address": address} for address in addresses]


def _pool_gateway(name: str, addresses: Mapping[str, Address]) -> str:
    found = addresses.get(name)
    if found is None:
        raise RenderError(GATEWAY_POOL_NOT_FOUND)
    return found.gateway


def _gateway(gateway: Gateway, addresses: Mapping[str, Address], host: BareMetalHost) -> str:
    """Precedence: string, fromPoolAnnotation, fromPoolRef, fromIPPool; else ""."""
    if gateway.string is not None:
        return gateway.string
    if gateway.from_pool_annotation is not None:
        return _pool_gateway(annotation_value(gateway.from_pool_annotation, host), addresses)
    if gateway.from_pool_ref is not None and gateway.from_pool_ref.name:
        return _pool_gateway(gateway.from_pool_ref.name, addresses)
    if gateway.from_ip_pool is not None:
        return _pool_gateway(gateway.from_ip_pool, addresses)
    return ""


def route_services(
    services: RouteServices | Services, addresses: Mapping[str, Address]
) -> list[dict[str, Any]]:
    """Static DNS entries, then the dnsFromIPPool pool's DNS servers."""
    entries = dns_entries(services.dns)
    if services.dns_from_ip_pool is not None:
        found = addresses.get(services.dns_from_ip_pool)
        if found is None:
            raise RenderError(POOL_NOT_FOUND)
        entries += dns_entries(found.dns_servers)
    return entries


def render_routes(
    routes: tuple[Route, ...], addresses: Mapping[str, Address], host: BareMetalHost, *, ipv4: bool
) -> list[dict[str, Any]]:
    """Always a list; each route has network, netmask, gateway and services."""
    return [
        {
            "network": route.network,
            "netmask": translate_mask(route.prefix, ipv4),
            "gateway": _gateway(route.gateway, addresses, host),
            "services": route_services(route.services, addresses),
        }
        for route in routes
    ]
