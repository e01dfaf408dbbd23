"""renderNetworkNetworks, getRoutesv4/v6, translateMask and renderNetworkServices.

Every entry of CAPM3's tables, same inputs and outputs. Adaptations, each marked:
* our model requires `id` and `link` on networks (the CRD does too), so CAPM3's
  error entries that omit them get `id: abc, link: def`; they still fail on the pool;
* no Machine exists before provisioning, so CAPM3's "IPv6 network with
  FromPoolAnnotation" (object `machine`) is an error here, and we add the same case
  with object `baremetalhost`, which succeeds;
* our networks also carry `network_id` (Ironic requires it): `networks_as_capm3` checks it
  equals the network's `id` and strips it, so it is the only difference from CAPM3's output.
"""

from __future__ import annotations

from typing import Any

import pytest

from dhcpless.models.netdata import Networks, Route, Services
from dhcpless.render import Address, RenderError
from dhcpless.render.openstack import render_networks, render_services
from dhcpless.render.routes import render_routes, translate_mask

from .capm3_parity import networks_as_capm3
from .hosts import NO_HOST, make_host

ABC_V4 = {"abc": Address("192.168.0.14", 24, "192.168.1.1")}
ABC_V6 = {"abc": Address("fe80::2001:38", 96, "fe80::2001:1")}


def _dns(*addresses: str) -> list[dict[str, str]]:
    return [{"type": "dns", "address": a} for a in addresses]


def _route(network: str, netmask: str, gateway: str, dns: list[dict[str, str]]) -> dict[str, Any]:
    return {"network": network, "netmask": netmask, "gateway": gateway, "services": dns}


V4_OUT = {
    "ip_address": "192.168.0.14",
    "routes": [_route("10.0.0.0", "255.255.0.0", "192.168.1.1", _dns("8.8.8.8"))],
    "type": "ipv4",
    "id": "abc",
    "link": "def",
    "netmask": "255.255.255.0",
}
V4_ROUTE_FROM_POOL = {
    "network": "10.0.0.0",
    "prefix": 16,
    "gateway": {"fromIPPool": "abc"},
    "services": {"dns": ["8.8.8.8"]},
}
CAPI_REF = {"name": "abc", "kind": "InClusterIPPool", "apiGroup": "ipam.metal3.io"}
V6_ROUTE = {"network": "2001::", "prefix": 64, "services": {"dns": ["2001::8888"]}}
V6_ROUTE_OUT = _route("2001::", "ffff:ffff:ffff:ffff::", "fe80::2001:1", _dns("2001::8888"))
STRING_V4_ROUTE = {**V4_ROUTE_FROM_POOL, "gateway": {"string": "192.168.1.1"}}
STRING_V6_ROUTE = {**V6_ROUTE, "gateway": {"string": "fe80::2001:1"}}
V4_POOL_HOST = make_host(annotations={"ippool.metal3.io/test-network": "test-pool"})
V6_POOL_HOST = make_host(annotations={"ippool.metal3.io/test-network-v6": "test-pool-v6"})
V6_ANNOTATION = {"annotation": "ippool.metal3.io/test-network-v6"}

NETWORK_CASES = [
    pytest.param(
        {
            "ipv4": [
                {
                    "id": "abc",
                    "link": "def",
                    "ipAddressFromIPPool": "abc",
                    "routes": [V4_ROUTE_FROM_POOL],
                }
            ]
        },
        ABC_V4,
        NO_HOST,
        [V4_OUT],
        id="IPv4 network",
    ),
    pytest.param(
        {
            "ipv4": [
                {
                    "id": "abc",
                    "link": "def",
                    "fromPoolRef": CAPI_REF,
                    "routes": [{**V4_ROUTE_FROM_POOL, "gateway": {"fromPoolRef": CAPI_REF}}],
                }
            ]
        },
        ABC_V4,
        NO_HOST,
        [V4_OUT],
        id="IPv4 network CAPI IPAM",
    ),
    pytest.param(
        {"ipv4": [{"id": "abc", "link": "def", "ipAddressFromIPPool": "abc"}]},
        {},
        NO_HOST,
        "pool not found in cache",
        id="IPv4 network, error",
    ),
    pytest.param(
        {
            "ipv6": [
                {
                    "id": "abc",
                    "link": "def",
                    "ipAddressFromIPPool": "abc",
                    "routes": [{**V6_ROUTE, "gateway": {"fromIPPool": "abc"}}],
                }
            ]
        },
        ABC_V6,
        NO_HOST,
        [
            {
                "ip_address": "fe80::2001:38",
                "routes": [V6_ROUTE_OUT],
                "type": "ipv6",
                "id": "abc",
                "link": "def",
                "netmask": "ffff:ffff:ffff:ffff:ffff:ffff::",
            }
        ],
        id="IPv6 network",
    ),
    pytest.param(
        {"ipv6": [{"id": "abc", "link": "def", "ipAddressFromIPPool": "abc"}]},
        {},
        NO_HOST,
        "pool not found in cache",
        id="IPv6 network error",
    ),
    pytest.param(
        {"ipv4DHCP": [{"id": "abc", "link": "def", "routes": [STRING_V4_ROUTE]}]},
        {},
        NO_HOST,
        [
            {
                "routes": [_route("10.0.0.0", "255.255.0.0", "192.168.1.1", _dns("8.8.8.8"))],
                "type": "ipv4_dhcp",
                "id": "abc",
                "link": "def",
            }
        ],
        id="IPv4 DHCP",
    ),
    pytest.param(
        {"ipv6DHCP": [{"id": "abc", "link": "def", "routes": [STRING_V6_ROUTE]}]},
        {},
        NO_HOST,
        [{"routes": [V6_ROUTE_OUT], "type": "ipv6_dhcp", "id": "abc", "link": "def"}],
        id="IPv6 DHCP",
    ),
    pytest.param(
        {"ipv6SLAAC": [{"id": "abc", "link": "def", "routes": [STRING_V6_ROUTE]}]},
        {},
        NO_HOST,
        [{"routes": [V6_ROUTE_OUT], "type": "ipv6_slaac", "id": "abc", "link": "def"}],
        id="IPv6 SLAAC",
    ),
    pytest.param(
        {
            "ipv4": [
                {
                    "id": "net1",
                    "link": "eth0",
                    "fromPoolAnnotation": {
                        "object": "baremetalhost",
                        "annotation": "ippool.metal3.io/test-network",
                    },
                    "routes": [],
                }
            ]
        },
        {"test-pool": Address("192.168.10.20", 24, "192.168.10.1")},
        V4_POOL_HOST,
        [
            {
                "ip_address": "192.168.10.20",
                "routes": [],
                "type": "ipv4",
                "id": "net1",
                "link": "eth0",
                "netmask": "255.255.255.0",
            }
        ],
        id="IPv4 network with FromPoolAnnotation",
    ),
    pytest.param(  # adapted: object machine does not exist before provisioning
        {
            "ipv6": [
                {
                    "id": "net1",
                    "link": "eth0",
                    "fromPoolAnnotation": {"object": "machine", **V6_ANNOTATION},
                }
            ]
        },
        {"test-pool-v6": Address("2001:db8::100", 64, "2001:db8::1")},
        V6_POOL_HOST,
        "machine is nil but referenced in annotation ippool.metal3.io/test-network-v6",
        id="IPv6 network with FromPoolAnnotation",
    ),
    pytest.param(  # ours: the same with the host as the annotated object
        {
            "ipv6": [
                {
                    "id": "net1",
                    "link": "eth0",
                    "fromPoolAnnotation": {"object": "BareMetalHost", **V6_ANNOTATION},
                }
            ]
        },
        {"test-pool-v6": Address("2001:db8::100", 64, "2001:db8::1")},
        V6_POOL_HOST,
        [
            {
                "ip_address": "2001:db8::100",
                "routes": [],
                "type": "ipv6",
                "id": "net1",
                "link": "eth0",
                "netmask": "ffff:ffff:ffff:ffff::",
            }
        ],
        id="IPv6 network with FromPoolAnnotation on the host",
    ),
    pytest.param(
        {"ipv4": [{"id": "a", "link": "l", "ipAddressFromIPPool": "p"}]},
        {"p": Address("10.0.0.5", None)},
        NO_HOST,
        [
            {
                "type": "ipv4",
                "id": "a",
                "link": "l",
                "ip_address": "10.0.0.5",
                "netmask": "",
                "routes": [],
            }
        ],
        id="address without prefix gives an empty netmask",
    ),
]


@pytest.mark.parametrize(("networks", "addresses", "host", "expected"), NETWORK_CASES)
def test_render_networks(
    networks: dict[str, Any],
    addresses: dict[str, Address],
    host: Any,
    expected: list[dict[str, Any]] | str,
) -> None:
    parsed = Networks.model_validate(networks)
    if isinstance(expected, str):
        with pytest.raises(RenderError, match=f"^{expected}$"):
            render_networks(parsed, addresses, host)
    else:
        assert networks_as_capm3(render_networks(parsed, addresses, host)) == expected


V4_ROUTES = [
    {"network": "192.168.0.0", "prefix": 24, "gateway": {"string": "192.168.1.1"}},
    {
        "network": "10.0.0.0",
        "prefix": 16,
        "gateway": {"fromIPPool": "abc"},
        "services": {"dns": ["8.8.8.8", "8.8.4.4"], "dnsFromIPPool": "abc"},
    },
    {"gateway": {"fromPoolRef": {"name": "abc"}}},
]
V6_ROUTES = [
    {"network": "2001::0", "prefix": 96, "gateway": {"string": "2001::1"}},
    {
        "network": "fe80::0",
        "prefix": 64,
        "gateway": {"fromIPPool": "abc"},
        "services": {"dns": ["fe80:2001::8888", "fe80:2001::8844"], "dnsFromIPPool": "abc"},
    },
    {"gateway": {"fromPoolRef": {"name": "abc"}}},
]

GATEWAY_MISSING = "failed to fetch pool from cache"

ROUTE_CASES = [
    pytest.param(
        V4_ROUTES,
        {"abc": Address("", None, "192.168.2.1", ("1.1.1.1",))},
        True,
        [
            _route("192.168.0.0", "255.255.255.0", "192.168.1.1", []),
            _route("10.0.0.0", "255.255.0.0", "192.168.2.1", _dns("8.8.8.8", "8.8.4.4", "1.1.1.1")),
            _route("", "0.0.0.0", "192.168.2.1", []),
        ],
        id="getRoutesv4",
    ),
    pytest.param(V4_ROUTES, {}, True, GATEWAY_MISSING, id="getRoutesv4 no pools"),
    pytest.param(
        V6_ROUTES,
        {"abc": Address("", None, "fe80::1", ("fe80:2001::1111",))},
        False,
        [
            _route("2001::0", "ffff:ffff:ffff:ffff:ffff:ffff::", "2001::1", []),
            _route(
                "fe80::0",
                "ffff:ffff:ffff:ffff::",
                "fe80::1",
                _dns("fe80:2001::8888", "fe80:2001::8844", "fe80:2001::1111"),
            ),
            _route("", "::", "fe80::1", []),
        ],
        id="getRoutesv6",
    ),
    pytest.param(
        V6_ROUTES, {}, False, "failed to fetch pool from cache", id="getRoutesv6 no pools"
    ),
    pytest.param(  # ours: string wins over every pool variant, no gateway at all is ""
        [
            {"gateway": {"string": "10.0.0.1", "fromIPPool": "missing"}},
            {"network": "0.0.0.0"},
        ],
        {},
        True,
        [_route("", "0.0.0.0", "10.0.0.1", []), _route("0.0.0.0", "0.0.0.0", "", [])],
        id="gateway precedence and absence",
    ),
    pytest.param(  # ours: a missing dnsFromIPPool pool is CAPM3's other message
        [{"services": {"dnsFromIPPool": "gone"}}],
        {},
        True,
        "pool not found in cache",
        id="route dnsFromIPPool missing",
    ),
]


@pytest.mark.parametrize(("routes", "addresses", "ipv4", "expected"), ROUTE_CASES)
def test_render_routes(
    routes: list[dict[str, Any]],
    addresses: dict[str, Address],
    ipv4: bool,
    expected: list[dict[str, Any]] | str,
) -> None:
    parsed = tuple(Route.model_validate(route) for route in routes)
    if isinstance(expected, str):
        with pytest.raises(RenderError, match=f"^{expected}$"):
            render_routes(parsed, addresses, NO_HOST, ipv4=ipv4)
    else:
        assert render_routes(parsed, addresses, NO_HOST, ipv4=ipv4) == expected


@pytest.mark.parametrize(
    ("prefix", "ipv4", "expected"),
    [
        pytest.param(24, True, "255.255.255.0", id="IPv4 mask 24"),
        pytest.param(16, True, "255.255.0.0", id="IPv4 mask 16"),
        pytest.param(64, False, "ffff:ffff:ffff:ffff::", id="IPv6 mask 64"),
        pytest.param(96, False, "ffff:ffff:ffff:ffff:ffff:ffff::", id="IPv6 mask 96"),
        pytest.param(0, True, "0.0.0.0", id="IPv4 mask 0"),
        pytest.param(32, True, "255.255.255.255", id="IPv4 mask 32"),
        pytest.param(0, False, "::", id="IPv6 mask 0"),
        pytest.param(127, False, "ffff:ffff:ffff:ffff:ffff:ffff:ffff:fffe", id="IPv6 mask 127"),
        pytest.param(None, True, "", id="no prefix"),
    ],
)
def test_translate_mask(prefix: int | None, ipv4: bool, expected: str) -> None:
    assert translate_mask(prefix, ipv4) == expected


def test_translate_mask_rejects_an_ipv4_prefix_over_32() -> None:
    with pytest.raises(RenderError, match="prefix 33 out of range for IPv4"):
        translate_mask(33, True)


SERVICES = {"dns": ["8.8.8.8", "2001::8888"], "dnsFromIPPool": "pool1"}


@pytest.mark.parametrize(
    ("addresses", "expected"),
    [
        pytest.param(
            {"pool1": Address("", dns_servers=("8.8.4.4",))},
            _dns("8.8.8.8", "2001::8888", "8.8.4.4"),
            id="Services and poolAddresses have the same pool",
        ),
        pytest.param(
            {"pool2": Address("", dns_servers=("8.8.4.4",))},
            "pool not found in cache",
            id="Services and poolAddresses have different pools",
        ),
    ],
)
def test_render_services(addresses: dict[str, Address], expected: list[Any] | str) -> None:
    services = Services.model_validate(SERVICES)
    if isinstance(expected, str):
        with pytest.raises(RenderError, match=expected):
            render_services(services, addresses)
    else:
        assert render_services(services, addresses) == expected
