"""Rule set IRONIC, layer 3: networks, their routes, and DNS services (see `validate_ironic`).

Ironic's schema picks the address family from a network's `type` (ipv4/ipv4_dhcp, or
ipv6/ipv6_dhcp/ipv6_slaac) and then checks `ip_address`, `netmask`, every route's `network`,
`netmask` and `gateway`, and the route's DNS services against that family's syntax
(`ironic_syntax`). Top-level services may be of either family.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from dhcpless.render.ironic_syntax import (
    V4_TYPES,
    V6_TYPES,
    IronicRule,
    finding,
    is_ipv4_host,
    is_ipv4_netmask,
    is_ipv4_network,
    is_ipv6_gateway,
    is_ipv6_host,
    is_ipv6_plain,
    is_str,
)
from dhcpless.render.problem import Problem

Check = Callable[[Any], bool]
_V4: dict[str, Check] = {
    "host": is_ipv4_host,
    "mask": is_ipv4_netmask,
    "net": is_ipv4_network,
    "gw": is_ipv4_host,
}
_V6: dict[str, Check] = {
    "host": is_ipv6_host,
    "mask": is_ipv6_plain,
    "net": is_ipv6_plain,
    "gw": is_ipv6_gateway,
}


def network_problems(index: int, network: Any) -> Iterator[Problem]:
    """One network: a known type, its required strings, then addresses of its family."""
    where = f"networks[{index}]"
    if not isinstance(network, Mapping):
        yield finding(IronicRule.NETWORK_TYPE, where, "not an object")
        return
    kind = network.get("type")
    if kind not in V4_TYPES and kind not in V6_TYPES:
        yield finding(IronicRule.NETWORK_TYPE, f"{where}.type", "not a network type Ironic knows")
        return
    for key in ("id", "link"):
        if not is_str(network.get(key)):
            yield finding(IronicRule.NETWORK_FIELDS, f"{where}.{key}", "missing or not a string")
    if not is_str(network.get("network_id")):
        what = "missing or not a string; Ironic requires it on every network"
        yield finding(IronicRule.NETWORK_ID, f"{where}.network_id", what)
    yield from _addresses(where, network, _V4 if kind in V4_TYPES else _V6)


def _addresses(
    where: str, network: Mapping[str, Any], family: Mapping[str, Check]
) -> Iterator[Problem]:
    if "ip_address" in network and not family["host"](network["ip_address"]):
        yield finding(IronicRule.ADDRESS, f"{where}.ip_address", "not an address of its family")
    if "netmask" in network and not family["mask"](network["netmask"]):
        yield finding(IronicRule.NETMASK, f"{where}.netmask", "not a netmask of its family")
    routes = network.get("routes", [])
    if not isinstance(routes, list):
        yield finding(IronicRule.ROUTE, f"{where}.routes", "not an array")
        return
    for index, route in enumerate(routes):
        yield from _route(f"{where}.routes[{index}]", route, family)


def _route(where: str, route: Any, family: Mapping[str, Check]) -> Iterator[Problem]:
    """network, netmask and gateway are required; services, when set, are of the family."""
    if not isinstance(route, Mapping):
        yield finding(IronicRule.ROUTE, where, "not an object")
        return
    missing = [key for key in ("network", "netmask", "gateway") if key not in route]
    if missing:
        yield finding(IronicRule.ROUTE, where, f"missing {', '.join(missing)}")
    if "network" in route and not family["net"](route["network"]):
        yield finding(IronicRule.ROUTE, f"{where}.network", "not a network of its family")
    if "netmask" in route and not family["mask"](route["netmask"]):
        yield finding(IronicRule.NETMASK, f"{where}.netmask", "not a netmask of its family")
    if "gateway" in route and not family["gw"](route["gateway"]):
        yield finding(IronicRule.GATEWAY, f"{where}.gateway", "not a gateway of its family")
    if "services" in route:
        yield from services_problems(f"{where}.services", route["services"], family["host"])


def _either(value: Any) -> bool:
    return is_ipv4_host(value) or is_ipv6_host(value)


def services_problems(where: str, services: Any, address: Check = _either) -> Iterator[Problem]:
    """Each service is `{type: dns, address: <host>}`; top level: of either family."""
    if not isinstance(services, list):
        yield finding(IronicRule.SERVICE, where, "not an array")
        return
    for index, service in enumerate(services):
        here = f"{where}[{index}]"
        if not isinstance(service, Mapping) or service.get("type") != "dns":
            yield finding(IronicRule.SERVICE, f"{here}.type", "missing or not dns")
        elif not address(service.get("address")):
            yield finding(IronicRule.SERVICE, f"{here}.address", "missing or not an address")
