"""renderNetworkData: CAPM3's table, plus determinism of the whole document.

Adaptation: CAPM3's "Error in link" passes a nil BMH; ours is a host with no status
(never inspected, no boot MAC), which fails the same way. Our networks also carry
`network_id` (Ironic requires it): `as_capm3` checks it equals each network's `id` and strips
it, so it is the only difference from CAPM3's expected output.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from dhcpless.models.netdata import NetworkData
from dhcpless.render import Address, RenderError, render_network_data

from .capm3_parity import as_capm3
from .hosts import NO_HOST

FULL = {
    "links": {
        "ethernets": [
            {
                "type": "phy",
                "id": "eth0",
                "mtu": 1500,
                "macAddress": {"string": "12:34:56:78:9A:BC"},
            }
        ]
    },
    "networks": {
        "ipv4": [
            {
                "id": "abc",
                "link": "def",
                "ipAddressFromIPPool": "abc",
                "routes": [
                    {
                        "network": "10.0.0.0",
                        "prefix": 16,
                        "gateway": {"string": "192.168.1.1"},
                        "services": {"dns": ["8.8.8.8"]},
                    }
                ],
            }
        ]
    },
    "services": {"dns": ["8.8.8.8", "2001::8888"]},
}
FULL_OUT = {
    "services": [
        {"type": "dns", "address": "8.8.8.8"},
        {"type": "dns", "address": "2001::8888"},
    ],
    "links": [
        {"type": "phy", "id": "eth0", "mtu": 1500, "ethernet_mac_address": "12:34:56:78:9A:BC"}
    ],
    "networks": [
        {
            "ip_address": "192.168.0.14",
            "routes": [
                {
                    "network": "10.0.0.0",
                    "netmask": "255.255.0.0",
                    "gateway": "192.168.1.1",
                    "services": [{"type": "dns", "address": "8.8.8.8"}],
                }
            ],
            "type": "ipv4",
            "id": "abc",
            "link": "def",
            "netmask": "255.255.255.0",
        }
    ],
}
ABC = {"abc": Address("192.168.0.14", 24)}


@pytest.mark.parametrize(
    ("network_data", "addresses", "expected"),
    [
        pytest.param(FULL, ABC, FULL_OUT, id="Full example"),
        pytest.param(
            {
                "links": {
                    "ethernets": [
                        {
                            "type": "phy",
                            "id": "eth0",
                            "mtu": 1500,
                            "macAddress": {"fromHostInterface": "eth0"},
                        }
                    ]
                }
            },
            {},
            RenderError("NICs list not populated"),
            id="Error in link",
        ),
        pytest.param(
            {"networks": {"ipv4": [{"id": "abc", "link": "def", "ipAddressFromIPPool": "abc"}]}},
            {},
            RenderError("pool not found in cache"),
            id="Address error",
        ),
        pytest.param(None, {}, None, id="Empty"),
        pytest.param({}, {}, {"links": [], "networks": [], "services": []}, id="empty networkData"),
    ],
)
def test_render_network_data(
    network_data: dict[str, Any] | None,
    addresses: dict[str, Address],
    expected: dict[str, Any] | RenderError | None,
) -> None:
    parsed = None if network_data is None else NetworkData.model_validate(network_data)
    if isinstance(expected, RenderError):
        with pytest.raises(RenderError, match=f"^{expected}"):
            render_network_data(parsed, NO_HOST, addresses)
    else:
        assert as_capm3(render_network_data(parsed, NO_HOST, addresses)) == expected


def test_output_is_byte_stable_json() -> None:
    parsed = NetworkData.model_validate(FULL)
    first = json.dumps(render_network_data(parsed, NO_HOST, ABC))
    again = json.dumps(render_network_data(NetworkData.model_validate(FULL), NO_HOST, dict(ABC)))
    assert first == again
    assert first.startswith('{"links": [{"type": "phy", "id": "eth0", "mtu": 1500')
