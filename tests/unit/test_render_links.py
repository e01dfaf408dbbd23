"""renderNetworkLinks: every entry of CAPM3's table, then bond parameters and defaults.

CAPM3 entries use Go structs; here the same inputs are written as the YAML a user
would write (camelCase), parsed by our model. "MAC error" entries in CAPM3 pass a BMH
with an empty status; ours do the same (no hardware, no boot MAC), so they fail too.
"""

from __future__ import annotations

from typing import Any

import pytest

from dhcpless.models.netdata import Links
from dhcpless.render import RenderError
from dhcpless.render.openstack import render_links

from .hosts import NO_HOST

MAC = {"string": "12:34:56:78:9A:BC"}
FROM_ETH2 = {"fromHostInterface": "eth2"}

CAPM3_CASES = [
    pytest.param(
        {"ethernets": [{"type": "phy", "id": "eth0", "mtu": 1500, "macAddress": MAC}]},
        [{"type": "phy", "id": "eth0", "mtu": 1500, "ethernet_mac_address": "12:34:56:78:9A:BC"}],
        id="Ethernet, MAC from string",
    ),
    pytest.param(
        {"ethernets": [{"type": "phy", "id": "eth0", "mtu": 1500, "macAddress": FROM_ETH2}]},
        "NICs list not populated",
        id="Ethernet, MAC error",
    ),
    pytest.param(
        {
            "bonds": [
                {
                    "bondMode": "802.3ad",
                    "bondXmitHashPolicy": "layer3+4",
                    "id": "bond0",
                    "mtu": 1500,
                    "macAddress": MAC,
                    "bondLinks": ["eth0"],
                }
            ]
        },
        [
            {
                "type": "bond",
                "id": "bond0",
                "mtu": 1500,
                "ethernet_mac_address": "12:34:56:78:9A:BC",
                "bond_mode": "802.3ad",
                "bond_xmit_hash_policy": "layer3+4",
                "bond_links": ["eth0"],
            }
        ],
        id="Bond, MAC from string",
    ),
    pytest.param(
        {
            "bonds": [
                {
                    "bondMode": "802.3ad",
                    "id": "bond0",
                    "mtu": 1500,
                    "macAddress": FROM_ETH2,
                    "bondLinks": ["eth0"],
                }
            ]
        },
        "NICs list not populated",
        id="Bond, MAC error",
    ),
    pytest.param(
        {
            "vlans": [
                {"vlanID": 2222, "id": "bond0", "mtu": 1500, "macAddress": MAC, "vlanLink": "eth0"}
            ]
        },
        [
            {
                "vlan_mac_address": "12:34:56:78:9A:BC",
                "vlan_id": 2222,
                "vlan_link": "eth0",
                "type": "vlan",
                "id": "bond0",
                "mtu": 1500,
            }
        ],
        id="Vlan, MAC from string",
    ),
    pytest.param(
        {
            "vlans": [
                {
                    "vlanID": 2222,
                    "id": "bond0",
                    "mtu": 1500,
                    "macAddress": FROM_ETH2,
                    "vlanLink": "eth0",
                }
            ]
        },
        "NICs list not populated",
        id="Vlan, MAC error",
    ),
    pytest.param(
        {"ethernets": [{"type": "phy", "id": "eth0", "mtu": 1500}]},
        [{"type": "phy", "id": "eth0", "mtu": 1500}],
        id="Ethernet, nil MAC address - use kernel name directly",
    ),
    pytest.param(
        {"bonds": [{"bondMode": "802.3ad", "id": "bond0", "mtu": 1500, "bondLinks": ["eth0"]}]},
        [
            {
                "type": "bond",
                "id": "bond0",
                "mtu": 1500,
                "bond_mode": "802.3ad",
                "bond_xmit_hash_policy": "",
                "bond_links": ["eth0"],
            }
        ],
        id="Bond, nil MAC address - use kernel name directly",
    ),
    pytest.param(
        {"vlans": [{"vlanID": 100, "id": "vlan100", "mtu": 1500, "vlanLink": "eth0"}]},
        [{"type": "vlan", "id": "vlan100", "mtu": 1500, "vlan_id": 100, "vlan_link": "eth0"}],
        id="Vlan, nil MAC address - use kernel name directly",
    ),
    pytest.param(
        {
            "ethernets": [
                {
                    "type": "phy",
                    "id": "eth0",
                    "name": "enp1s0",
                    "mtu": 1500,
                    "macAddress": {"string": "AA:BB:CC:DD:EE:FF"},
                }
            ]
        },
        [
            {
                "type": "phy",
                "id": "eth0",
                "name": "enp1s0",
                "mtu": 1500,
                "ethernet_mac_address": "AA:BB:CC:DD:EE:FF",
            }
        ],
        id="Ethernet interface rename - name field explicitly set",
    ),
    pytest.param(
        {
            "bonds": [
                {
                    "bondMode": "active-backup",
                    "bondXmitHashPolicy": "layer2",
                    "id": "bond0",
                    "name": "bond-mgmt",
                    "mtu": 9000,
                    "macAddress": {"string": "11:22:33:44:55:66"},
                    "bondLinks": ["eth0", "eth1"],
                }
            ]
        },
        [
            {
                "type": "bond",
                "id": "bond0",
                "name": "bond-mgmt",
                "mtu": 9000,
                "ethernet_mac_address": "11:22:33:44:55:66",
                "bond_mode": "active-backup",
                "bond_xmit_hash_policy": "layer2",
                "bond_links": ["eth0", "eth1"],
            }
        ],
        id="Bond interface rename - name field explicitly set",
    ),
    pytest.param(
        {
            "vlans": [
                {
                    "vlanID": 100,
                    "id": "vlan100",
                    "name": "vlan-storage",
                    "mtu": 9000,
                    "vlanLink": "bond0",
                    "macAddress": {"string": "AA:BB:CC:DD:EE:00"},
                }
            ]
        },
        [
            {
                "type": "vlan",
                "id": "vlan100",
                "name": "vlan-storage",
                "mtu": 9000,
                "vlan_mac_address": "AA:BB:CC:DD:EE:00",
                "vlan_id": 100,
                "vlan_link": "bond0",
            }
        ],
        id="Vlan interface rename - name field explicitly set",
    ),
    pytest.param(
        {
            "ethernets": [
                {
                    "type": "phy",
                    "id": "eth0",
                    "name": "mgmt0",
                    "mtu": 1500,
                    "macAddress": {"string": "AA:BB:CC:DD:EE:01"},
                },
                {
                    "type": "phy",
                    "id": "eth1",
                    "name": "storage0",
                    "mtu": 9000,
                    "macAddress": {"string": "AA:BB:CC:DD:EE:02"},
                },
            ],
            "bonds": [
                {
                    "bondMode": "802.3ad",
                    "id": "bond0",
                    "name": "bond-data",
                    "mtu": 9000,
                    "macAddress": {"string": "AA:BB:CC:DD:EE:03"},
                    "bondLinks": ["mgmt0", "storage0"],
                }
            ],
            "vlans": [
                {
                    "vlanID": 200,
                    "id": "vlan200",
                    "name": "tenant-net",
                    "mtu": 1500,
                    "vlanLink": "bond-data",
                    "macAddress": {"string": "AA:BB:CC:DD:EE:04"},
                }
            ],
        },
        [
            {
                "type": "bond",
                "id": "bond0",
                "name": "bond-data",
                "mtu": 9000,
                "ethernet_mac_address": "AA:BB:CC:DD:EE:03",
                "bond_mode": "802.3ad",
                "bond_xmit_hash_policy": "",
                "bond_links": ["mgmt0", "storage0"],
            },
            {
                "type": "phy",
                "id": "eth0",
                "name": "mgmt0",
                "mtu": 1500,
                "ethernet_mac_address": "AA:BB:CC:DD:EE:01",
            },
            {
                "type": "phy",
                "id": "eth1",
                "name": "storage0",
                "mtu": 9000,
                "ethernet_mac_address": "AA:BB:CC:DD:EE:02",
            },
            {
                "type": "vlan",
                "id": "vlan200",
                "name": "tenant-net",
                "mtu": 1500,
                "vlan_mac_address": "AA:BB:CC:DD:EE:04",
                "vlan_id": 200,
                "vlan_link": "bond-data",
            },
        ],
        id="Multiple interfaces with custom names",
    ),
]


def _bond(**extra: Any) -> dict[str, Any]:
    return {"bonds": [{"bondMode": "802.3ad", "id": "bond0", **extra}]}


OUR_CASES = [
    pytest.param(
        _bond(
            parameters=[{"name": "miimon", "value": 100}, {"name": "lacp_rate", "value": "fast"}]
        ),
        [
            {
                "type": "bond",
                "id": "bond0",
                "mtu": 1500,
                "bond_mode": "802.3ad",
                "bond_xmit_hash_policy": "",
                "bond_links": None,
                "bond_miimon": 100,
                "bond_lacp_rate": "fast",
            }
        ],
        id="v1beta2 parameter list, mtu default, bond_links null",
    ),
    pytest.param(
        _bond(parameters={"miimon": 100, "lacp_rate": "fast"}, bondLinks=[]),
        [
            {
                "type": "bond",
                "id": "bond0",
                "mtu": 1500,
                "bond_mode": "802.3ad",
                "bond_xmit_hash_policy": "",
                "bond_links": [],
                "bond_miimon": 100,
                "bond_lacp_rate": "fast",
            }
        ],
        id="v1beta1 parameter map",
    ),
    pytest.param(
        _bond(parameters={"mode": "x", "miimon": 1, "links": ["a"]}),
        'illegal params "mode", "links" into bond params blob into link id=bond0',
        id="parameters colliding with structured keys",
    ),
    pytest.param(
        {"vlans": [{"id": "vlan7", "vlanLink": "eth0"}]},
        'renderNetworkLinks: VLAN link "vlan7" is missing required VlanID',
        id="vlan without vlanID",
    ),
    pytest.param(
        {"ethernets": [{"type": "phy", "id": "eth0", "macAddress": {}}]},
        "bad MAC address: ",
        id="empty macAddress object",
    ),
]


@pytest.mark.parametrize(("links", "expected"), [*CAPM3_CASES, *OUR_CASES])
def test_render_links(links: dict[str, Any], expected: list[dict[str, Any]] | str) -> None:
    parsed = Links.model_validate(links)
    if isinstance(expected, str):
        with pytest.raises(RenderError) as err:
            render_links(parsed, NO_HOST)
        assert str(err.value).startswith(expected)
    else:
        assert render_links(parsed, NO_HOST) == expected


def test_link_keys_come_in_a_fixed_order() -> None:
    links = Links.model_validate(
        {"vlans": [{"vlanID": 5, "id": "v", "name": "n", "vlanLink": "e", "macAddress": MAC}]}
    )
    keys = list(render_links(links, NO_HOST)[0])
    assert keys == ["type", "id", "name", "mtu", "vlan_mac_address", "vlan_id", "vlan_link"]
