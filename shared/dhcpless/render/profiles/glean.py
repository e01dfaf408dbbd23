"""Ramdisk rules: what the declared ramdisk's network writer cannot configure, refused up front.

A host released with data its ramdisk cannot write hangs: nothing reports back, and
`HostHangs` fires long after. The community ramdisk runs glean once per NIC (`init/glean-nm@
.service`: `--interface %I`), and glean 1.25.1 (`cmd.py`) then loses these layouts; each rule
is confirmed by running that glean per NIC (`tests/unit/test_validate_ramdisk.py`):

* `bond-ports` (every glean profile): a bond's ports are looked up in `sys_interfaces`, which
  `--interface` pruned to one NIC (`write_redhat_interfaces`, `_write_debian_bond_conf`):
  KeyError, the run dies, nothing is written, on every port's run;
* `ipv6-needs-ipv4` (redhat): `_write_rh_v6_interface` (assert) and its keyfile twin
  (KeyError) append IPv6 to the file the link's IPv4 branch wrote; with no IPv4 network on
  the link the NIC's whole run dies, taking VLANs on that NIC along;
* `one-network-per-family` (redhat): a link has one ifcfg file (keyfile); a second IPv4 (or
  IPv4 DHCP), or a second static IPv6, rewrites it, and the last by `id` wins;
* `keyfile-route-prefix` (el10): `_write_rh_keyfile_interface` and its IPv6 twin place routes
  after the line `address.*/[0-9][0-9]`: any other prefix length plus a route is AttributeError;
* `slaac-after-ipv4` (el10): `get_config_drive_interfaces` merges a link's networks into one
  dict in document order, so SLAAC whose last static predecessor on the link is IPv4 inherits
  its `ip_address` and IPv4 netmask: UnboundLocalError in `_write_rh_v6_keyfile_interface`;
* `keyfile-vlan`, `keyfile-bond` (el10): every keyfile is `type=802-3-ethernet` on the link's
  MAC (`_network_config`; `_set_rh_vlan`, `_set_rh_bonding` only add a `[vlan]` section or
  `type=bond` under `[802-3-ethernet]`), so NetworkManager creates no VLAN and no bond and
  puts their address on the plain NIC (seen with NetworkManager 1.42, `tests/netns`): on a
  tagged switch port the host hangs (a bond of two or more ports is `bond-ports` already);
* `mtu-below-default` (every glean profile): glean writes no MTU (none of its writers has an
  MTU line), so every interface runs at the kernel's 1500 (a VLAN at its parent's); a link whose
  network carries less drops the larger frames. A larger MTU is fine: 1500 fits in it.

An nmstate ramdisk does not run glean: none of these apply to it (`profiles.nmstate`).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from dhcpless.keys import LinkKind, OpenStackNetworkType, RamdiskProfile, ValidationRule
from dhcpless.render.osdoc import OsDocument, OsNetwork
from dhcpless.render.problem import Problem

_T = OpenStackNetworkType
GLEAN_MTU: Final = 1500
"""What an interface glean configured runs at: the kernel's Ethernet default (linux
`net/ethernet/eth.c` `ether_setup`), since glean writes no MTU."""
_V4_FILE = (_T.IPV4, _T.IPV4_DHCP)
"""The networks whose branch writes a link's base file (`write_redhat_interfaces`)."""


class RamdiskCheck(StrEnum):
    """The finer rule within `ValidationRule.RAMDISK` (a Problem's `check`)."""

    BOND_PORTS = "bond-ports"
    IPV6_NEEDS_IPV4 = "ipv6-needs-ipv4"
    ONE_PER_FAMILY = "one-network-per-family"
    KEYFILE_ROUTE_PREFIX = "keyfile-route-prefix"
    SLAAC_AFTER_IPV4 = "slaac-after-ipv4"
    MTU_BELOW_DEFAULT = "mtu-below-default"
    KEYFILE_VLAN = "keyfile-vlan"
    KEYFILE_BOND = "keyfile-bond"


HINTS = {
    RamdiskCheck.BOND_PORTS: "give the ramdisk the boot NIC alone, or use the nmstate profile",
    RamdiskCheck.IPV6_NEEDS_IPV4: "add IPv4 on that link, or use glean-debian or nmstate",
    RamdiskCheck.ONE_PER_FAMILY: "one network per family on a link, or use glean-debian",
    RamdiskCheck.KEYFILE_ROUTE_PREFIX: "a two-digit prefix, no routes, or use glean-el9",
    RamdiskCheck.SLAAC_AFTER_IPV4: "static IPv6 or no SLAAC on that link, or use glean-el9",
    RamdiskCheck.MTU_BELOW_DEFAULT: "glean writes no MTU (1500 it is): a network carrying 1500, "
    "or use nmstate",
    RamdiskCheck.KEYFILE_VLAN: "an untagged boot NIC for the ramdisk, or use glean-el9 or nmstate",
    RamdiskCheck.KEYFILE_BOND: "the NIC itself for the ramdisk, or use glean-el9 or nmstate",
}
"""The way out of each rule, with no value from the document: what a Warning about a
Secret's data (redacted, `render.redact`) still says."""


def _problem(
    check: RamdiskCheck, profile: RamdiskProfile, where: str, what: str, way: str
) -> Problem:
    """`where`: the JSON path, all a redacted problem (a Secret's) keeps besides the rule."""
    message = f"{what}; the {profile} ramdisk would come up without it ({check}): {way}"
    hint = f"the {profile} ramdisk cannot configure this; {HINTS[check]}"
    return Problem(ValidationRule.RAMDISK, message, path=where, check=check, hint=hint)


_OTHER = "use the nmstate ramdisk profile (an image that applies the nmstate document)"
_OR = f"or {_OTHER}"


def _bonds(doc: OsDocument, profile: RamdiskProfile) -> Iterator[Problem]:
    for index, link in enumerate(doc.links):
        if link.kind is LinkKind.BOND and len(link.parents) > 1:
            what = f"links[{index}] bond {link.id}: glean runs once per port and dies on a bond"
            way = (
                f"give the ramdisk the boot NIC alone (the bond stays for the installed OS), {_OR}"
            )
            yield _problem(RamdiskCheck.BOND_PORTS, profile, f"links[{index}]", what, way)


def _by_link(doc: OsDocument) -> dict[str, list[OsNetwork]]:
    """Each link's networks in document order: glean writes one file per link."""
    grouped: dict[str, list[OsNetwork]] = {}
    for network in doc.networks:
        grouped.setdefault(network.link, []).append(network)
    return grouped


def _at(doc: OsDocument, network: OsNetwork) -> str:
    return f"networks[{doc.networks.index(network)}]"


def _ipv6_alone(doc: OsDocument, profile: RamdiskProfile) -> Iterator[Problem]:
    for link, networks in _by_link(doc).items():
        if any(n.version == 6 for n in networks) and not any(n.type in _V4_FILE for n in networks):
            what = f"link {link}: IPv6 with no IPv4 network; the NIC's whole glean run dies"
            way = f"add an IPv4 network on link {link}, use the glean-debian profile, or {_OTHER}"
            yield _problem(RamdiskCheck.IPV6_NEEDS_IPV4, profile, _at(doc, networks[0]), what, way)


def _crowded(doc: OsDocument, profile: RamdiskProfile) -> Iterator[Problem]:
    for link, networks in _by_link(doc).items():
        v4 = [n for n in networks if n.type in _V4_FILE]
        v6 = [n for n in networks if n.type is _T.IPV6]
        for family, group in (("IPv4", v4), ("IPv6", v6)):
            if len(group) > 1:
                ids = ", ".join(n.id for n in group)
                what = f"link {link}: {family} networks {ids}; only the last by id is written"
                way = f"one {family} network per link (a VLAN for another), or glean-debian"
                where = _at(doc, group[1])
                yield _problem(RamdiskCheck.ONE_PER_FAMILY, profile, where, what, way)


def _route_prefix(doc: OsDocument, profile: RamdiskProfile) -> Iterator[Problem]:
    for network in doc.networks:
        prefix = _prefix(network)
        if network.is_static and network.routes and prefix is not None and not 10 <= prefix <= 99:
            what = f"network {network.id}: prefix /{prefix} with routes is not written"
            way = f"a two-digit prefix (/10 to /99), no routes on {network.id}, or glean-el9"
            where = _at(doc, network)
            yield _problem(RamdiskCheck.KEYFILE_ROUTE_PREFIX, profile, where, what, way)


def _prefix(network: OsNetwork) -> int | None:
    """The prefix length glean writes (`ip_interface`, `utils.ipv6_netmask_length`)."""
    try:
        return bin(int(ipaddress.ip_address(network.netmask))).count("1")
    except ValueError:
        return None  # the address rules report it


def _slaac_after(doc: OsDocument, profile: RamdiskProfile) -> Iterator[Problem]:
    for link, networks in _by_link(doc).items():
        for index, network in enumerate(networks):
            before = [n for n in networks[:index] if n.is_static]
            if network.type is _T.IPV6_SLAAC and before and before[-1].version == 4:
                what = f"link {link}: SLAAC network {network.id} after IPv4 {before[-1].id}"
                way = f"static IPv6 or no SLAAC on {link}, the glean-el9 profile, {_OR}"
                where = _at(doc, network)
                yield _problem(RamdiskCheck.SLAAC_AFTER_IPV4, profile, where, what, way)


def _small_mtu(doc: OsDocument, profile: RamdiskProfile) -> Iterator[Problem]:
    for index, link in enumerate(doc.links):
        if link.mtu is not None and link.mtu < GLEAN_MTU:
            what = (
                f"link {link.id}: MTU {link.mtu}; glean writes no MTU, so it runs at "
                f"{GLEAN_MTU} and frames larger than {link.mtu} are dropped"
            )
            way = f"give the ramdisk a network that carries {GLEAN_MTU} bytes, {_OR}"
            where = f"links[{index}].mtu"
            yield _problem(RamdiskCheck.MTU_BELOW_DEFAULT, profile, where, what, way)


def _as_ethernet(doc: OsDocument, profile: RamdiskProfile) -> Iterator[Problem]:
    """el10: a VLAN carrying a network (glean writes a file only for those), a bond of one port
    (glean writes one for every bond, `get_config_drive_interfaces`); each an Ethernet keyfile."""
    used = {network.link for network in doc.networks}
    for index, link in enumerate(doc.links):
        if link.kind is LinkKind.VLAN and link.id in used:
            what = f"link {link.id}: VLAN {link.vlan_id} is written as an Ethernet keyfile"
            way = (
                f"give the ramdisk the untagged boot NIC alone (the VLAN stays for the installed "
                f"OS), use the glean-el9 profile, {_OR}"
            )
            yield _problem(RamdiskCheck.KEYFILE_VLAN, profile, f"links[{index}]", what, way)
        elif link.kind is LinkKind.BOND and len(link.parents) <= 1:
            what = f"link {link.id}: a bond of one port is written as an Ethernet keyfile"
            way = f"give the ramdisk its port NIC, no bond, use the glean-el9 profile, {_OR}"
            yield _problem(RamdiskCheck.KEYFILE_BOND, profile, f"links[{index}]", what, way)


Rule = Callable[[OsDocument, RamdiskProfile], Iterator[Problem]]
EVERY: Final[tuple[Rule, ...]] = (_bonds, _small_mtu)
"""What every glean writer loses."""
REDHAT: Final[tuple[Rule, ...]] = (_ipv6_alone, _crowded)
"""What glean's redhat writer loses besides (`write_redhat_interfaces`: ifcfg or keyfiles)."""
KEYFILE: Final[tuple[Rule, ...]] = (_route_prefix, _slaac_after, _as_ethernet)
"""What its keyfile writer (el10) loses besides."""


@dataclass(frozen=True, slots=True)
class Glean:
    """A ramdisk whose network glean writes, once per NIC: `rules` in the order they report."""

    profile: RamdiskProfile
    rules: tuple[Rule, ...]

    def problems(self, doc: OsDocument) -> tuple[Problem, ...]:
        return tuple(problem for rule in self.rules for problem in rule(doc, self.profile))
