"""Rule set IRONIC against Ironic's own schema: one table row per way of breaking a rule.

Each bad row starts from the committed bond+VLAN fixture (which Ironic accepts), breaks one
thing, and asserts both (a) our validation refuses it with a message naming the field and the
rule, without the value, and (b) Ironic's schema (`../shared/schemas/ironic/`, jsonschema)
refuses the same document. Good rows show both accepting what Ironic accepts, so a rule is
neither looser nor stricter than Ironic's for the cases listed. Every `IronicRule` must have
a row.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from dhcpless.keys import ValidationRule
from dhcpless.models import BareMetalHost
from dhcpless.render.ironic_syntax import IronicRule
from dhcpless.render.validate import validate_network_data
from tests.ironic_schema import ironic_errors

FOLDER = Path(__file__).resolve().parents[1] / "fixtures" / "render" / "bond-vlan"
BASE: dict[str, Any] = json.loads((FOLDER / "expected.json").read_text())
HOST = BareMetalHost.from_k8s(yaml.safe_load((FOLDER / "host.yaml").read_text()))
Edit = Callable[[dict[str, Any]], object]
SECRET_LOOKING = "s3cr3t-value"


def _set(path: str, value: Any) -> Edit:
    """An edit that sets `path` (dotted, with list indexes) to `value`."""
    *parents, last = path.split(".")

    def edit(doc: dict[str, Any]) -> None:
        target: Any = doc
        for part in parents:
            target = target[int(part)] if part.isdigit() else target[part]
        target[int(last) if last.isdigit() else last] = value

    return edit


def _drop(path: str) -> Edit:
    *parents, last = path.split(".")

    def edit(doc: dict[str, Any]) -> None:
        target: Any = doc
        for part in parents:
            target = target[int(part)] if part.isdigit() else target[part]
        del target[last]

    return edit


def _row(rule: IronicRule, field: str, edit: Edit, name: str) -> Any:
    return pytest.param(rule, field, edit, id=f"{rule}: {name}")


R = IronicRule
BAD = [
    _row(R.DOCUMENT, "services", _drop("services"), "services missing"),
    _row(R.DOCUMENT, "links", _set("links", {"nic0": {}}), "links not an array"),
    _row(R.LINK_TYPE, "links[1].type", _set("links.1.type", "ethernet"), "unknown type"),
    _row(R.LINK_TYPE, "links[1].type", _drop("links.1.type"), "no type"),
    _row(R.LINK_ID, "links[1].id", _drop("links.1.id"), "id missing"),
    _row(R.LINK_ID, "links[1].vif_id", _set("links.1.vif_id", 7), "vif_id not a string"),
    _row(
        R.LINK_MAC,
        "links[1].ethernet_mac_address",
        _drop("links.1.ethernet_mac_address"),
        "NIC without MAC",
    ),
    _row(
        R.LINK_MAC,
        "links[0].ethernet_mac_address",
        _drop("links.0.ethernet_mac_address"),
        "bond without MAC",
    ),
    _row(
        R.LINK_MAC,
        "links[3].vlan_mac_address",
        _drop("links.3.vlan_mac_address"),
        "VLAN without MAC",
    ),
    _row(
        R.LINK_MAC,
        "links[1].ethernet_mac_address",
        _set("links.1.ethernet_mac_address", "52:54:00:6c:3c"),
        "short MAC",
    ),
    _row(
        R.LINK_MAC,
        "links[1].ethernet_mac_address",
        _set("links.1.ethernet_mac_address", SECRET_LOOKING),
        "not a MAC",
    ),
    _row(R.LINK_MTU, "links[1].mtu", _set("links.1.mtu", 0), "MTU 0"),
    _row(R.LINK_MTU, "links[1].mtu", _set("links.1.mtu", 65536), "MTU over 65535"),
    _row(R.LINK_MTU, "links[1].mtu", _set("links.1.mtu", "1500"), "MTU as a string"),
    _row(R.BOND_MODE, "links[0].bond_mode", _set("links.0.bond_mode", "lacp"), "unknown mode"),
    _row(R.BOND_MODE, "links[0].bond_mode", _drop("links.0.bond_mode"), "mode missing"),
    _row(
        R.BOND_LINKS,
        "links[0].bond_links",
        _set("links.0.bond_links", None),
        "null (CAPM3 without ports)",
    ),
    _row(R.BOND_LINKS, "links[0].bond_links", _set("links.0.bond_links", "nic0 nic1"), "a string"),
    _row(R.BOND_LINKS, "links[0].bond_links", _drop("links.0.bond_links"), "missing"),
    _row(R.VLAN_ID, "links[3].vlan_id", _set("links.3.vlan_id", "10"), "a string"),
    _row(R.VLAN_ID, "links[3].vlan_id", _set("links.3.vlan_id", True), "a boolean"),
    _row(R.VLAN_LINK, "links[3].vlan_link", _drop("links.3.vlan_link"), "missing"),
    _row(R.NETWORK_TYPE, "networks[0].type", _set("networks.0.type", "ipv5"), "unknown type"),
    _row(R.NETWORK_FIELDS, "networks[0].link", _drop("networks.0.link"), "link missing"),
    _row(R.NETWORK_FIELDS, "networks[0].id", _set("networks.0.id", 4), "id not a string"),
    _row(
        R.NETWORK_ID,
        "networks[0].network_id",
        _drop("networks.0.network_id"),
        "missing (CAPM3's rendering)",
    ),
    _row(R.NETWORK_ID, "networks[1].network_id", _set("networks.1.network_id", None), "null"),
    _row(
        R.ADDRESS,
        "networks[0].ip_address",
        _set("networks.0.ip_address", "10.0.10.256"),
        "octet over 255",
    ),
    _row(
        R.ADDRESS,
        "networks[0].ip_address",
        _set("networks.0.ip_address", "2001:db8::1"),
        "IPv6 on IPv4",
    ),
    _row(
        R.ADDRESS,
        "networks[1].ip_address",
        _set("networks.1.ip_address", "2001:db8::zz"),
        "bad IPv6",
    ),
    _row(
        R.NETMASK,
        "networks[0].netmask",
        _set("networks.0.netmask", "255.255.255.255"),
        "a /32 pool",
    ),
    _row(
        R.NETMASK,
        "networks[0].netmask",
        _set("networks.0.netmask", "255.0.255.0"),
        "not contiguous",
    ),
    _row(R.NETMASK, "networks[1].netmask", _set("networks.1.netmask", "64"), "IPv6 prefix length"),
    _row(
        R.NETMASK,
        "networks[0].routes[0].netmask",
        _set("networks.0.routes.0.netmask", "255.255.255.255"),
        "route /32",
    ),
    _row(R.ROUTE, "networks[0].routes[0]", _drop("networks.0.routes.0.gateway"), "no gateway"),
    _row(
        R.ROUTE,
        "networks[0].routes[0].network",
        _set("networks.0.routes.0.network", "010.0.0.0"),
        "leading zero",
    ),
    _row(R.ROUTE, "networks[0].routes", _set("networks.0.routes", {}), "routes not an array"),
    _row(
        R.GATEWAY, "networks[0].routes[0].gateway", _set("networks.0.routes.0.gateway", ""), "empty"
    ),
    _row(
        R.GATEWAY,
        "networks[0].routes[0].gateway",
        _set("networks.0.routes.0.gateway", "10.0.10.1/24"),
        "with prefix",
    ),
    _row(
        R.GATEWAY,
        "networks[1].routes[0].gateway",
        _set("networks.1.routes.0.gateway", "2001:db8:10::1/64"),
        "IPv6 with prefix",
    ),
    _row(R.SERVICE, "services[0].type", _set("services.0.type", "ntp"), "not dns"),
    _row(
        R.SERVICE,
        "services[1].address",
        _set("services.1.address", SECRET_LOOKING),
        "not an address",
    ),
    _row(
        R.SERVICE,
        "networks[0].routes[0].services[0].address",
        _set("networks.0.routes.0.services.0.address", "2001:db8::53"),
        "IPv6 DNS on an IPv4 route",
    ),
]


def _edited(edit: Edit) -> dict[str, Any]:
    doc = copy.deepcopy(BASE)
    edit(doc)
    return doc


def _ironic_messages(doc: dict[str, Any]) -> list[str]:
    return [p.message for p in validate_network_data(doc, HOST) if p.rule is ValidationRule.IRONIC]


def test_the_base_document_passes_both() -> None:
    assert (ironic_errors(BASE), _ironic_messages(BASE)) == ([], [])


@pytest.mark.parametrize(("rule", "field", "edit"), BAD)
def test_a_broken_rule_is_refused_by_us_and_by_ironic(
    rule: IronicRule, field: str, edit: Edit
) -> None:
    doc = _edited(edit)
    ours = _ironic_messages(doc)
    assert any(m.startswith(f"{field}:") and m.endswith(f"(rule {rule})") for m in ours), ours
    assert not any(SECRET_LOOKING in m for m in ours)
    assert ironic_errors(doc), "Ironic's schema accepts this: our rule would be stricter"


def test_every_rule_has_a_row() -> None:
    assert {p.values[0] for p in BAD} == set(IronicRule)


GOOD = [
    pytest.param(
        _set("links.1.ethernet_mac_address", "52-54-00-6C-3C-11"), id="MAC with dashes, upper case"
    ),
    pytest.param(_set("links.1.mtu", None), id="MTU null"),
    pytest.param(_drop("links.1.mtu"), id="MTU absent"),
    pytest.param(_set("links.0.bond_links", []), id="bond with no ports listed"),
    pytest.param(
        _set("networks.0.ip_address", "010.000.010.021"), id="IPv4 host with leading zeros"
    ),
    pytest.param(_set("networks.0.netmask", "255.255.255.254"), id="a /31"),
    pytest.param(_set("networks.0.netmask", "0.0.0.0"), id="prefix 0 (CAPM3 renders it)"),
    pytest.param(_set("networks.1.ip_address", "2001:db8:10::21/64"), id="IPv6 host with prefix"),
    pytest.param(
        _set("networks.1.routes.0.gateway", "fe80::1%eth0"), id="link-local gateway with zone"
    ),
    pytest.param(
        _set("networks.0.network_id", "99e88329-f20d-4741-9593-25bf07847b16"), id="UUID network_id"
    ),
    pytest.param(_set("networks.0.type", "ipv4_dhcp"), id="DHCP network with static fields"),
    pytest.param(_set("links.1.type", "ovs"), id="another NIC type"),
    pytest.param(_set("links.1.vif_id", "cd9f6d46"), id="vif_id a string"),
]


@pytest.mark.parametrize("edit", GOOD)
def test_what_ironic_accepts_we_accept(edit: Edit) -> None:
    doc = _edited(edit)
    assert (ironic_errors(doc), _ironic_messages(doc)) == ([], [])


def test_the_one_deliberate_difference_is_stricter() -> None:
    """Ironic's IPv4 netmask pattern is anchored only at its ends (see `ironic_syntax`)."""
    doc = _edited(_set("networks.0.netmask", "255.255.0.01"))
    assert ironic_errors(doc) == []
    assert _ironic_messages(doc) == [
        "networks[0].netmask: not a netmask of its family (rule ironic-netmask)"
    ]
