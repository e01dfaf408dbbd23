"""Small, total parsers for the address strings found in rendered network data.

Each returns None instead of raising, so a validation rule can say precisely what is
wrong with a value instead of stopping at the first exception.
"""

from __future__ import annotations

import ipaddress
import re
from ipaddress import IPv4Address, IPv4Interface, IPv6Address, IPv6Interface

IPAddress = IPv4Address | IPv6Address
IPInterface = IPv4Interface | IPv6Interface

COLON_MAC = re.compile(r"[0-9A-Fa-f]{2}(:[0-9A-Fa-f]{2}){5}")
ANY_MAC = re.compile(r"[0-9A-Fa-f]{2}([:-][0-9A-Fa-f]{2}){5}")
"""What CAPM3 and BMO accept; glean only matches the kernel's colon form (COLON_MAC)."""


def family(version: int) -> str:
    """Either "IPv4" or "IPv6", for messages."""
    return f"IPv{version}"


def parse_ip(text: str, version: int | None = None) -> IPAddress | None:
    """The address, or None when `text` is not one (of `version`, when given)."""
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    return address if version in (None, address.version) else None


def mask_prefix(mask: str, version: int) -> int | None:
    """Prefix length of a netmask written as an address (`255.255.255.0`, `ffff::`)."""
    address = parse_ip(mask, version)
    if address is None:
        return None
    width = address.max_prefixlen
    host_bits = ~int(address) & ((1 << width) - 1)
    if host_bits & (host_bits + 1):
        return None  # not contiguous ones then zeros
    return width - host_bits.bit_length()


def interface(address: str, netmask: str, version: int) -> IPInterface | None:
    """address/prefix as an interface, or None when either part is unusable."""
    ip, prefix = parse_ip(address, version), mask_prefix(netmask, version)
    if ip is None or prefix is None:
        return None
    return ipaddress.ip_interface(f"{ip}/{prefix}")


def normalise_mac(mac: str) -> str:
    """Lower case with `:` separators, for comparing MACs written either way."""
    return mac.lower().replace("-", ":")


def mac_defect(mac: str) -> str | None:
    """Why `mac` cannot identify a NIC for glean, or None when it can."""
    if not ANY_MAC.fullmatch(mac):
        return "is not a MAC address"
    if not COLON_MAC.fullmatch(mac):
        return "uses '-' separators: glean compares it with the kernel's aa:bb:.. form"
    first = int(mac[:2], 16)
    if first & 1:
        return "is a multicast address, which no NIC has"
    if int(mac.replace(":", ""), 16) == 0:
        return "is all zeros"
    return None
