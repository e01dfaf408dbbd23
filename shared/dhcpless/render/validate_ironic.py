"""Pre-unpause rule set IRONIC: what Ironic's API would refuse as the node's `network_data`.

Without a PreprovisioningImage builder, baremetal-operator copies the Secret's `networkData`
unchanged into the Ironic node's `network_data` (metal3-io/baremetal-operator
`pkg/provisioner/ironic/register.go`, `Register`, the `!havePreprovImgBuilder` block), and
Ironic validates every such update against its JSON schema (openstack/ironic
`ironic/api/controllers/v1/node.py` `validate_network_data`). A refusal is a transient error
for BMO (`pkg/provisioner/ironic/ironic.go` `tryUpdateNode`): it writes no status and the host
sits in `registering` with nothing saying why. So every constraint of that schema is a rule
here (`IronicRule`), checked on the raw document (before any parsing that would hide a wrong
type) for rendered data and for Secrets users write alike. Messages name the JSON path and
the rule, never a value: the document is Secret data.

Links are checked here; networks, routes and services in `validate_ironic_l3`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from dhcpless.render.ironic_syntax import (
    BOND_MODES,
    PHYSICAL_TYPES,
    IronicRule,
    finding,
    is_mac,
    is_str,
)
from dhcpless.render.problem import Problem
from dhcpless.render.validate_ironic_l3 import network_problems, services_problems

_SECTIONS = ("links", "networks", "services")


def ironic_problems(document: Any) -> tuple[Problem, ...]:
    """Every reason Ironic's schema would refuse `document`, in document order."""
    if not isinstance(document, Mapping):
        return (finding(IronicRule.DOCUMENT, "(document)", "not an object"),)
    missing = [s for s in _SECTIONS if not isinstance(document.get(s), list)]
    if missing:
        where = ", ".join(missing)
        return (finding(IronicRule.DOCUMENT, where, "each must be present and an array"),)
    return (
        *(p for i, link in enumerate(document["links"]) for p in link_problems(i, link)),
        *(p for i, net in enumerate(document["networks"]) for p in network_problems(i, net)),
        *services_problems("services", document["services"]),
    )


def link_problems(index: int, link: Any) -> Iterator[Problem]:
    """One link: a known type, then the fields that type requires."""
    where = f"links[{index}]"
    if not isinstance(link, Mapping):
        yield finding(IronicRule.LINK_TYPE, where, "not an object")
        return
    kind = link.get("type")
    if not (kind in PHYSICAL_TYPES or kind in ("bond", "vlan")):
        yield finding(IronicRule.LINK_TYPE, f"{where}.type", "not a link type Ironic knows")
        return
    yield from _common(where, link)
    if kind == "vlan":
        yield from _vlan(where, link)
    else:
        yield from _mac(where, link, "ethernet_mac_address")
    if kind == "bond":
        yield from _bond(where, link)


def _common(where: str, link: Mapping[str, Any]) -> Iterator[Problem]:
    """`id` is a required string, `vif_id` an optional one; `mtu` null or 1..65535."""
    if not is_str(link.get("id")):
        yield finding(IronicRule.LINK_ID, f"{where}.id", "missing or not a string")
    if "vif_id" in link and not is_str(link["vif_id"]):
        yield finding(IronicRule.LINK_ID, f"{where}.vif_id", "not a string")
    mtu = link.get("mtu")
    number = isinstance(mtu, int | float) and not isinstance(mtu, bool)
    if mtu is not None and not (number and 1 <= mtu <= 65535):
        yield finding(IronicRule.LINK_MTU, f"{where}.mtu", "not null or a number 1-65535")


def _mac(where: str, link: Mapping[str, Any], key: str) -> Iterator[Problem]:
    if key not in link:
        yield finding(IronicRule.LINK_MAC, f"{where}.{key}", "missing")
    elif not is_mac(link[key]):
        yield finding(IronicRule.LINK_MAC, f"{where}.{key}", "not a MAC address")


def _bond(where: str, link: Mapping[str, Any]) -> Iterator[Problem]:
    if link.get("bond_mode") not in BOND_MODES:
        yield finding(IronicRule.BOND_MODE, f"{where}.bond_mode", "missing or not a known mode")
    ports = link.get("bond_links")
    if not (isinstance(ports, list) and all(is_str(p) for p in ports)):
        yield finding(IronicRule.BOND_LINKS, f"{where}.bond_links", "not an array of link ids")


def _vlan(where: str, link: Mapping[str, Any]) -> Iterator[Problem]:
    yield from _mac(where, link, "vlan_mac_address")
    vlan_id = link.get("vlan_id")
    integral = isinstance(vlan_id, int) or (isinstance(vlan_id, float) and vlan_id.is_integer())
    if isinstance(vlan_id, bool) or not integral:
        yield finding(IronicRule.VLAN_ID, f"{where}.vlan_id", "missing or not an integer")
    if not is_str(link.get("vlan_link")):
        yield finding(IronicRule.VLAN_LINK, f"{where}.vlan_link", "missing or not a string")
