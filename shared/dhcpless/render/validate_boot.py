"""Boot-NIC rule: the NIC the host boots from must end up with a static address.

The ramdisk reaches Ironic through the boot NIC (`spec.bootMACAddress`); with no DHCP,
only a static `ipv4`/`ipv6` network gives it an address. That network may sit on the
boot NIC's own link or on a bond or VLAN built on it (followed through any depth of
`bond_links`/`vlan_link`). MACs compare case-insensitively with `-` read as `:`. DHCP
and SLAAC networks do not count: this project exists because there is no DHCP.

A host without `bootMACAddress` is a problem too: which NIC boots is then unknown, so
nothing shows that the ramdisk can reach Ironic (and BMO needs the field for every
driver but virtual media). Fix the host, or skip this rule knowingly.
"""

from __future__ import annotations

from collections.abc import Iterator

from dhcpless.keys import LinkKind, ValidationRule
from dhcpless.models.bmh import BareMetalHost
from dhcpless.render.ipnet import ANY_MAC, normalise_mac
from dhcpless.render.osdoc import OsDocument
from dhcpless.render.problem import Problem

_RULE = ValidationRule.BOOT_MAC


def _boot_links(doc: OsDocument, boot_mac: str) -> list[str]:
    wanted = normalise_mac(boot_mac)
    return [
        link.id
        for link in doc.links
        if link.kind is LinkKind.ETHERNET
        and link.mac is not None
        and normalise_mac(link.mac) == wanted
    ]


def carriers(doc: OsDocument, roots: list[str]) -> set[str]:
    """`roots` plus every link built on them, directly or through other bonds/VLANs."""
    found = set(roots)
    grew = True
    while grew:
        added = {link.id for link in doc.links if found.intersection(link.parents)} - found
        found |= added
        grew = bool(added)
    return found


def boot_mac_problems(doc: OsDocument, host: BareMetalHost) -> Iterator[Problem]:
    """BOOT_MAC: the boot NIC is absent from the links or carries no static network."""
    boot_mac = host.spec.boot_mac_address
    if not boot_mac:
        yield Problem(_RULE, "host has no spec.bootMACAddress: the boot NIC is unknown")
        return
    if not ANY_MAC.fullmatch(boot_mac):
        yield Problem(_RULE, f'host bootMACAddress "{boot_mac}" is not a MAC address')
        return
    roots = _boot_links(doc, boot_mac)
    if not roots:
        yield Problem(_RULE, f"no NIC link has the boot MAC {boot_mac}")
        return
    links = carriers(doc, roots)
    if not any(net.is_static and net.link in links for net in doc.networks):
        names = ", ".join(f'"{ref}"' for ref in roots)
        why = "the ramdisk cannot reach Ironic"
        yield Problem(
            _RULE,
            f"boot NIC link {names} carries no static network (directly or via bond/VLAN): {why}",
        )
