"""Boot-NIC rule: the NIC the host boots from must end up with an address the ramdisk can use.

The ramdisk reaches Ironic through the boot NIC (`spec.bootMACAddress`). The network that
gives it an address may sit on the boot NIC's own link or on a bond or VLAN built on it
(followed through any depth of `bond_links`/`vlan_link`). MACs compare case-insensitively
with `-` read as `:`. Which networks count depends on the document (the lead's decision):

* a document with any static `ipv4`/`ipv6` network is a DHCP-less setup: the boot NIC
  needs a static network, since DHCP or SLAAC on it would leave the ramdisk unreachable;
* a DHCP/SLAAC-only document (a template that references no pool) says the boot network
  has DHCP or router advertisements: any network on the boot NIC is then enough.

A host without `bootMACAddress` is a problem too: which NIC boots is then unknown, so
nothing shows that the ramdisk can reach Ironic (and BMO needs the field for every
driver but virtual media). Fix the host, or skip this rule knowingly.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from dhcpless.keys import LinkKind, ValidationRule
from dhcpless.models.bmh import BareMetalHost
from dhcpless.render.ipnet import ANY_MAC, normalise_mac
from dhcpless.render.osdoc import OsDocument
from dhcpless.render.problem import Problem

_RULE = ValidationRule.BOOT_MAC
_HOST = "(host) spec.bootMACAddress"
"""Where the boot MAC rule looks when the host itself is at fault (not the document)."""


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
    """`roots` plus every link built on them, directly or through other bonds/VLANs: one pass
    to index each link's children, then a walk that visits each link once (linear; it rescanned
    every link once per level before, quadratic in a long VLAN chain)."""
    children: dict[str, list[str]] = defaultdict(list)
    for link in doc.links:
        for parent in link.parents:
            children[parent].append(link.id)
    found, todo = set(roots), list(roots)
    while todo:
        for child in children.get(todo.pop(), ()):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def boot_mac_problems(doc: OsDocument, host: BareMetalHost) -> Iterator[Problem]:
    """BOOT_MAC: the boot NIC is absent from the links or carries no static network."""
    boot_mac = host.spec.boot_mac_address
    if not boot_mac:
        yield Problem(_RULE, "host has no spec.bootMACAddress: the boot NIC is unknown", _HOST)
        return
    if not ANY_MAC.fullmatch(boot_mac):
        yield Problem(_RULE, f'host bootMACAddress "{boot_mac}" is not a MAC address', _HOST)
        return
    roots = _boot_links(doc, boot_mac)
    if not roots:
        yield Problem(_RULE, f"no NIC link has the boot MAC {boot_mac}", "links")
        return
    links = carriers(doc, roots)
    static = any(net.is_static for net in doc.networks)
    if not any(net.link in links and (net.is_static or not static) for net in doc.networks):
        names = ", ".join(f'"{ref}"' for ref in roots)
        what = "static network" if static else "network"
        why = "the ramdisk cannot reach Ironic"
        yield Problem(
            _RULE,
            f"boot NIC link {names} carries no {what} (directly or via bond/VLAN): {why}",
            "networks",
        )
