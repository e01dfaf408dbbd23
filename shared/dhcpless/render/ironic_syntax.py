"""The value syntax Ironic's network_data schema demands, and the names of its rules.

Ironic's API validates every update of a node's `network_data` against its JSON schema
(openstack/ironic `ironic/api/controllers/v1/node.py` `validate_network_data`, which runs
`jsonschema.validate` over `ironic/api/controllers/v1/network-data-schema.json`). The checks
here are written for this project from what that schema requires; tests hold each one to the
schema itself. Every predicate takes any JSON value, so a wrong type is simply "not valid".
One deliberate difference: the schema's IPv4 netmask pattern is anchored only at its two ends,
so a string that merely contains a mask (e.g. `255.255.0.01`) passes it; here a netmask must be
exactly a mask, since no consumer could use anything else.
"""

from __future__ import annotations

import ipaddress
import re
from enum import StrEnum
from typing import Any, Final

from dhcpless.keys import ValidationRule
from dhcpless.render.problem import Problem


class IronicRule(StrEnum):
    """One constraint of Ironic's network_data schema (each named in the messages)."""

    DOCUMENT = "ironic-document"  # an object with `links`, `networks`, `services` arrays
    LINK_TYPE = "ironic-link-type"  # a known link type (NIC kinds, bond, vlan)
    LINK_ID = "ironic-link-id"  # `id` (and `vif_id` when set) are strings
    LINK_MAC = "ironic-link-mac"  # NICs and bonds: ethernet_mac_address; VLANs: vlan_mac_address
    LINK_MTU = "ironic-link-mtu"  # absent, null, or a number from 1 to 65535
    BOND_MODE = "ironic-bond-mode"  # one of the bonding modes Ironic knows
    BOND_LINKS = "ironic-bond-links"  # an array of link names
    VLAN_ID = "ironic-vlan-id"  # an integer
    VLAN_LINK = "ironic-vlan-link"  # a string
    NETWORK_TYPE = "ironic-network-type"  # ipv4, ipv4_dhcp, ipv6, ipv6_dhcp, ipv6_slaac
    NETWORK_FIELDS = "ironic-network-fields"  # `id` and `link` are strings
    NETWORK_ID = "ironic-network-id"  # `network_id` is a string, on every network
    ADDRESS = "ironic-address"  # ip_address of the network's family
    NETMASK = "ironic-netmask"  # a mask of the network's family (IPv4: not /32)
    ROUTE = "ironic-route"  # routes: objects with network, netmask and gateway
    GATEWAY = "ironic-gateway"  # a route gateway of the network's family
    SERVICE = "ironic-service"  # services: objects with type `dns` and an address


PHYSICAL_TYPES: Final = frozenset(
    {"bridge", "dvs", "hw_veb", "hyperv", "ovs", "tap", "vhostuser", "vif", "phy"}
)
BOND_MODES: Final = frozenset(
    {"802.3ad", "balance-rr", "active-backup", "balance-xor", "broadcast"}
    | {"balance-tlb", "balance-alb"}
)
V4_TYPES: Final = frozenset({"ipv4", "ipv4_dhcp"})
V6_TYPES: Final = frozenset({"ipv6", "ipv6_dhcp", "ipv6_slaac"})

_MAC = re.compile(r"[0-9a-fA-F]{2}(?:[:-][0-9a-fA-F]{2}){5}")
_OCTET_LOOSE = re.compile(r"[0-9]{1,3}")  # host addresses: leading zeros are accepted
_OCTET_STRICT = re.compile(r"0|[1-9][0-9]{0,2}")  # network addresses and masks: none
_PREFIX_SUFFIX = re.compile(r"(.*)/[0-9]{1,2}")
_ZONE = re.compile(r"[0-9a-zA-Z]+")
_V4_TAIL = re.compile(r"(?:::(?:ffff(?::0{1,4})?:)?|(?:[0-9a-fA-F]{1,4}:){1,4}:)[0-9.]+")


def finding(rule: IronicRule, where: str, what: str) -> Problem:
    """A problem naming the field (a JSON path) and the rule, never the value."""
    return Problem(ValidationRule.IRONIC, f"{where}: {what} (rule {rule})", where, rule)


def is_str(value: Any) -> bool:
    return isinstance(value, str)


def is_mac(value: Any) -> bool:
    """Six hex pairs, each separator `:` or `-`, any case."""
    return isinstance(value, str) and _MAC.fullmatch(value) is not None


def _dotted(value: Any, octet: re.Pattern[str]) -> list[int] | None:
    if not isinstance(value, str):
        return None
    parts = value.split(".")
    if len(parts) != 4 or not all(octet.fullmatch(p) for p in parts):
        return None
    numbers = [int(p) for p in parts]
    return numbers if all(n <= 255 for n in numbers) else None


def is_ipv4_host(value: Any) -> bool:
    """Dotted quad; Ironic's pattern lets octets carry leading zeros."""
    return _dotted(value, _OCTET_LOOSE) is not None


def is_ipv4_network(value: Any) -> bool:
    """Dotted quad without leading zeros (a route's destination)."""
    return _dotted(value, _OCTET_STRICT) is not None


def is_ipv4_netmask(value: Any) -> bool:
    """A contiguous mask of prefix 0 to 31: Ironic refuses 255.255.255.255."""
    numbers = _dotted(value, _OCTET_STRICT)
    if numbers is None:
        return False
    mask = int.from_bytes(bytes(numbers), "big")
    inverted = ~mask & 0xFFFFFFFF
    return inverted != 0 and inverted & (inverted + 1) == 0


def is_ipv6_plain(value: Any) -> bool:
    """Hex-and-colon IPv6 (no embedded IPv4, no zone, no prefix): netmasks, route networks."""
    if not isinstance(value, str) or any(c in value for c in "./%"):
        return False
    return _parses_v6(value)


def is_ipv6_gateway(value: Any) -> bool:
    """IPv6 as a gateway: also a link-local address with a zone, or an embedded IPv4 tail."""
    if not isinstance(value, str) or "/" in value:
        return False
    if "%" in value:
        address, _, zone = value.partition("%")
        link_local = address.startswith("fe80:") and _ZONE.fullmatch(zone) is not None
        return link_local and _parses_v6(address)
    if "." in value:
        return _V4_TAIL.fullmatch(value) is not None and _parses_v6(value)
    return _parses_v6(value)


def is_ipv6_host(value: Any) -> bool:
    """IPv6 as a host address: a gateway's forms, optionally with a `/<1-2 digit>` prefix."""
    if isinstance(value, str) and (match := _PREFIX_SUFFIX.fullmatch(value)):
        return is_ipv6_gateway(match.group(1))
    return is_ipv6_gateway(value)


def _parses_v6(text: str) -> bool:
    try:
        ipaddress.IPv6Address(text)
    except ValueError:
        return False
    return True
