"""The OpenStack → nmstate conversion: mapping rows, consistency, YAML output.

* One table row per line of the mapping in the module docstring (DHCP/SLAAC flags,
  disabled families, names over ids, bond options, empty gateways, DNS order).
* Consistency: for every template fixture (nmstate and render fixtures), the MACs,
  addresses with prefix, routes (destination, gateway) and DNS servers read from the
  OpenStack rendering equal those read from the nmstate rendering. The extraction
  here uses only `ipaddress`, independent of the converter's helpers.
* Errors: unusable netmasks and malformed documents raise the renderer's errors.
* `dump_nmstate` quotes what YAML 1.1 would misread and round-trips.
"""

from __future__ import annotations

import ipaddress
import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from dhcpless.models import ModelError
from dhcpless.render import RenderError
from dhcpless.render.nmstate import dump_nmstate, openstack_to_nmstate, render_nmstate
from dhcpless.tools.render_cmd import EXIT_OK, run_render

from .hosts import make_host

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
MAC = "52:54:00:00:00:01"
Doc = dict[str, Any]


def nic(link_id: str = "eth0", **extra: Any) -> Doc:
    return {"type": "phy", "id": link_id, "mtu": 1500, "ethernet_mac_address": MAC, **extra}


def net(
    kind: str, link: str = "eth0", routes: list[Doc] | None = None, address: Doc | None = None
) -> Doc:
    head = {"type": kind, "id": f"{kind}-{link}", "link": link}
    return {**head, **(address or {}), "routes": routes or []}


def route(network: str, netmask: str, gateway: str, dns: tuple[str, ...] = ()) -> Doc:
    services = [{"type": "dns", "address": a} for a in dns]
    return {"network": network, "netmask": netmask, "gateway": gateway, "services": services}


def convert(links: list[Doc], networks: list[Doc], dns: tuple[str, ...] = ()) -> Doc:
    services = [{"type": "dns", "address": a} for a in dns]
    return openstack_to_nmstate({"links": links, "networks": networks, "services": services})


def iface(state: Doc, name: str) -> Doc:
    found: Doc = next(i for i in state["interfaces"] if i["name"] == name)
    return found


V4 = {"ip_address": "10.0.0.5", "netmask": "255.255.255.0"}
V6 = {"ip_address": "fd00::5", "netmask": "ffff:ffff:ffff:ffff::"}


@pytest.mark.parametrize(
    ("networks", "ipv4", "ipv6"),
    [
        pytest.param([], {"enabled": False}, {"enabled": False}, id="no network: both disabled"),
        pytest.param(
            [net("ipv4_dhcp")],
            {"enabled": True, "dhcp": True},
            {"enabled": False},
            id="ipv4_dhcp",
        ),
        pytest.param(
            [net("ipv6_dhcp")],
            {"enabled": False},
            {"enabled": True, "dhcp": True, "autoconf": False},
            id="ipv6_dhcp",
        ),
        pytest.param(
            [net("ipv6_slaac")],
            {"enabled": False},
            {"enabled": True, "dhcp": True, "autoconf": True},
            id="ipv6_slaac needs dhcp in nmstate",
        ),
        pytest.param(
            [
                net("ipv4", address=V4),
                net("ipv4", address={**V4, "ip_address": "10.0.1.5"}),
                net("ipv6", address=V6),
            ],
            {
                "enabled": True,
                "dhcp": False,
                "address": [
                    {"ip": "10.0.0.5", "prefix-length": 24},
                    {"ip": "10.0.1.5", "prefix-length": 24},
                ],
            },
            {
                "enabled": True,
                "dhcp": False,
                "autoconf": False,
                "address": [{"ip": "fd00::5", "prefix-length": 64}],
            },
            id="several static networks merge into one block",
        ),
        pytest.param(
            [net("ipv6", address=V6), net("ipv6_slaac")],
            {"enabled": False},
            {
                "enabled": True,
                "dhcp": True,
                "autoconf": True,
                "address": [{"ip": "fd00::5", "prefix-length": 64}],
            },
            id="static and SLAAC on one link",
        ),
    ],
)
def test_ip_blocks(networks: list[Doc], ipv4: Doc, ipv6: Doc) -> None:
    state = convert([nic()], networks)
    assert (iface(state, "eth0")["ipv4"], iface(state, "eth0")["ipv6"]) == (ipv4, ipv6)


def _bond(**extra: Any) -> Doc:
    return {
        "type": "bond",
        "id": "bond0",
        "mtu": 1500,
        "bond_mode": "802.3ad",
        "bond_xmit_hash_policy": "",
        "bond_links": ["eth0"],
        **extra,
    }


@pytest.mark.parametrize(
    ("links", "name", "expected"),
    [
        pytest.param(
            [nic(name="prov0")],
            "prov0",
            {"type": "ethernet", "identifier": "mac-address", "mac-address": MAC, "mtu": 1500},
            id="NIC named by name, matched by MAC",
        ),
        pytest.param(
            [{"type": "phy", "id": "eth0", "mtu": 1500}],
            "eth0",
            {"type": "ethernet", "mtu": 1500},
            id="NIC without MAC: matched by name",
        ),
        pytest.param(
            [{"type": "tap", "id": "eth0", "ethernet_mac_address": MAC}],
            "eth0",
            {"type": "ethernet", "identifier": "mac-address", "mac-address": MAC},
            id="other NIC types are ethernet, mtu left out when absent",
        ),
        pytest.param(
            [
                _bond(bond_xmit_hash_policy="layer2", bond_miimon=100, bond_lacp_rate="fast"),
                nic(name="p0"),
            ],
            "bond0",
            {
                "type": "bond",
                "mtu": 1500,
                "link-aggregation": {
                    "mode": "802.3ad",
                    "options": {"xmit_hash_policy": "layer2", "miimon": 100, "lacp_rate": "fast"},
                    "port": ["p0"],
                },
            },
            id="bond: options in order, ports by interface name",
        ),
        pytest.param(
            [_bond(bond_links=None), nic()],
            "bond0",
            {
                "type": "bond",
                "mtu": 1500,
                "link-aggregation": {"mode": "802.3ad", "options": {}, "port": []},
            },
            id="bond without links",
        ),
        pytest.param(
            [
                nic(name="eno1"),
                {
                    "type": "vlan",
                    "id": "v7",
                    "mtu": 1500,
                    "vlan_mac_address": MAC,
                    "vlan_id": 7,
                    "vlan_link": "eno1",
                },
            ],
            "v7",
            {
                "type": "vlan",
                "mac-address": MAC,
                "mtu": 1500,
                "vlan": {"base-iface": "eno1", "id": 7},
            },
            id="vlan_link given by name still resolves",
        ),
    ],
)
def test_interfaces(links: list[Doc], name: str, expected: Doc) -> None:
    found = iface(convert(links, []), name)
    assert found["state"] == "up"
    assert {
        k: v for k, v in found.items() if k not in ("name", "state", "ipv4", "ipv6")
    } == expected


def test_routes_and_dns() -> None:
    v4 = net(
        "ipv4",
        "vl",
        [
            route("0.0.0.0", "0.0.0.0", "10.0.0.1", ("9.9.9.9",)),
            route("10.9.0.0", "255.255.0.0", ""),
        ],
        V4,
    )
    dhcp6 = net("ipv6_dhcp", "vl", [route("fd99::", "ffff:ffff::", "fd00::1", ("8.8.8.8",))])
    vl = {"type": "vlan", "id": "vl", "name": "eth0.5", "vlan_id": 5, "vlan_link": "eth0"}
    state = convert([nic(), vl], [v4, dhcp6], dns=("8.8.8.8", "1.1.1.1"))
    assert state["routes"] == {
        "config": [
            {
                "destination": "0.0.0.0/0",
                "next-hop-address": "10.0.0.1",
                "next-hop-interface": "eth0.5",
            },
            {"destination": "10.9.0.0/16", "next-hop-interface": "eth0.5"},
            {
                "destination": "fd99::/32",
                "next-hop-address": "fd00::1",
                "next-hop-interface": "eth0.5",
            },
        ]
    }
    assert state["dns-resolver"] == {"config": {"server": ["8.8.8.8", "1.1.1.1", "9.9.9.9"]}}


def test_empty_sections_are_left_out() -> None:
    assert convert([nic()], []) == {"interfaces": [iface(convert([nic()], []), "eth0")]}


@pytest.mark.parametrize(
    ("document", "error", "message"),
    [
        pytest.param(
            {
                "links": [nic()],
                "networks": [net("ipv4", address={**V4, "netmask": "255.0.255.0"})],
            },
            RenderError,
            'network "ipv4-eth0": netmask "255.0.255.0" is not an IPv4 netmask',
            id="address netmask",
        ),
        pytest.param(
            {"networks": [net("ipv4_dhcp", routes=[route("10.0.0.0", "", "10.0.0.1")])]},
            RenderError,
            'network "ipv4_dhcp-eth0" route 10.0.0.0: netmask "" is not an IPv4 netmask',
            id="route netmask",
        ),
        pytest.param(
            {"links": [{"id": "x"}]},
            ModelError,
            "not OpenStack network data: field links.0.type: Field required",
            id="malformed",
        ),
    ],
)
def test_unusable_documents_raise(document: Doc, error: type[Exception], message: str) -> None:
    with pytest.raises(error) as raised:
        openstack_to_nmstate(document)
    assert str(raised.value) == message


def test_render_nmstate_without_network_data_is_none() -> None:
    assert render_nmstate(None, make_host(), {}) is None


def test_dump_quotes_colons_and_round_trips() -> None:
    state = {"interfaces": [{"name": "e", "mac-address": "10:20:30:40:50:59", "mtu": 1500}]}
    text = dump_nmstate(state)
    assert 'mac-address: "10:20:30:40:50:59"' in text
    assert yaml.safe_load(text) == state
    assert text == dump_nmstate(json.loads(json.dumps(state)))


# --- consistency with the OpenStack rendering -------------------------------------------
def _prefix(netmask: str) -> int:
    return bin(int(ipaddress.ip_address(netmask))).count("1")


def _openstack_facts(doc: Doc) -> tuple[set[str], set[str], set[tuple[str, str]], set[str]]:
    macs = {
        link.get("ethernet_mac_address") or link.get("vlan_mac_address") for link in doc["links"]
    }
    addresses = {
        f"{n['ip_address']}/{_prefix(n['netmask'])}" for n in doc["networks"] if "ip_address" in n
    }
    routes = {
        (f"{r['network']}/{_prefix(r['netmask'])}", r["gateway"])
        for n in doc["networks"]
        for r in n["routes"]
    }
    services = [
        *doc["services"],
        *(s for n in doc["networks"] for r in n["routes"] for s in r["services"]),
    ]
    return {m for m in macs if m}, addresses, routes, {s["address"] for s in services}


def _nmstate_facts(state: Doc) -> tuple[set[str], set[str], set[tuple[str, str]], set[str]]:
    interfaces = state["interfaces"]
    macs = {i["mac-address"] for i in interfaces if "mac-address" in i}
    addresses = {
        f"{a['ip']}/{a['prefix-length']}"
        for i in interfaces
        for family in ("ipv4", "ipv6")
        for a in i[family].get("address", [])
    }
    routes = {
        (r["destination"], r.get("next-hop-address", ""))
        for r in state.get("routes", {}).get("config", [])
    }
    servers = set(state.get("dns-resolver", {}).get("config", {}).get("server", []))
    return macs, addresses, routes, servers


def _bundle(folder: str, template: str) -> Path:
    return FIXTURES / folder / template


TEMPLATES = [
    *(
        pytest.param(_bundle(f"nmstate/{case}", "input.yaml"), None, None, id=case)
        for case in ("ipv4", "ipv6", "dual-stack", "bond", "vlan")
    ),
    pytest.param(
        _bundle("render/single-nic", "template.yaml"),
        _bundle("render/single-nic", "host.yaml"),
        _bundle("render/single-nic", "addresses.yaml"),
        id="render single-nic",
    ),
    *(
        pytest.param(
            _bundle("render/bond-vlan", name),
            _bundle("render/bond-vlan", "host.yaml"),
            _bundle("render/bond-vlan", "addresses.yaml"),
            id=f"render bond-vlan {name}",
        )
        for name in ("template-v1beta1.yaml", "template-v1beta2.yaml")
    ),
]


@pytest.mark.parametrize(("template", "host", "addresses"), TEMPLATES)
def test_same_facts_in_both_formats(
    template: Path, host: Path | None, addresses: Path | None
) -> None:
    outputs = [
        run_render(template, host or template, addresses or template, fmt)
        for fmt in ("openstack", "nmstate")
    ]
    assert [code for code, _, _ in outputs] == [EXIT_OK, EXIT_OK]
    openstack = _openstack_facts(json.loads(outputs[0][1]))
    nmstate = _nmstate_facts(yaml.safe_load(outputs[1][1]))
    assert all(openstack), "every fixture has MACs, addresses, routes and DNS servers"
    assert nmstate == openstack
