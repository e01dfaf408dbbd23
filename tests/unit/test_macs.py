"""getLinkMacAddress and getBMHMacByName (CAPM3's tables), and our pre-inspection rule.

Adaptation: CAPM3 reads annotations from the Machine and Metal3Machine too; neither
exists before provisioning, so those entries expect CAPM3's nil-object error, and each
has a `baremetalhost` twin that shows the same behaviour on the object we do have.
"""

from __future__ import annotations

from typing import Any

import pytest

from dhcpless.models import BareMetalHost
from dhcpless.models.netdata import Links, MacAddress
from dhcpless.render import RenderError
from dhcpless.render.macs import bmh_mac_by_name, link_mac_address
from dhcpless.render.openstack import render_links

from .hosts import NO_HOST, make_host

NICS = [
    {"name": "eth0", "mac": "12:34:56:78:9A:BC"},
    {},  # CAPM3 checks that an empty entry does not break the lookup
    {"name": "eth1", "mac": "DE:F0:12:34:56:78"},
]
INSPECTED = make_host(nics=NICS)
ANNOTATED = make_host(annotations={"mac-address": "12:34:56:78:9A:BD"})
BAD_MAC_HOST = make_host(annotations={"mac-address": "XX:XX:XX:XX:XX:XX"})


def _from(obj: str, annotation: str = "mac-address") -> dict[str, Any]:
    return {"fromAnnotation": {"object": obj, "annotation": annotation}}


@pytest.mark.parametrize(
    ("mac", "host", "expected"),
    [
        pytest.param({"string": "12:34:56:78:9A:BC"}, NO_HOST, "12:34:56:78:9A:BC", id="string"),
        pytest.param(
            {"fromHostInterface": "eth1"}, INSPECTED, "DE:F0:12:34:56:78", id="from host interface"
        ),
        pytest.param(
            {"fromHostInterface": "eth2"},
            INSPECTED,
            RenderError("NIC name not found eth2"),
            id="from host interface not found",
        ),
        pytest.param(  # adapted: no Machine before provisioning
            _from("machine"),
            ANNOTATED,
            RenderError("machine is nil but referenced in annotation mac-address"),
            id="from machine annotation",
        ),
        pytest.param(  # adapted: no Metal3Machine before provisioning
            _from("metal3machine"),
            ANNOTATED,
            RenderError("metal3machine is nil but referenced in annotation mac-address"),
            id="from metal3machine annotation",
        ),
        pytest.param(
            _from("baremetalhost"),
            ANNOTATED,
            "12:34:56:78:9A:BD",
            id="from baremetalhost annotation",
        ),
        pytest.param(
            _from("wrflbrmpfd"),
            NO_HOST,
            RenderError("unknown object type"),
            id="from annotation on unknown object",
        ),
        pytest.param(  # adapted: CAPM3 uses object machine
            _from("baremetalhost", "wrflbrmpfd"),
            ANNOTATED,
            RenderError("bad MAC address: "),
            id="from unknown annotation",
        ),
        pytest.param(  # adapted: CAPM3 uses object machine
            _from("baremetalhost"),
            BAD_MAC_HOST,
            RenderError("bad MAC address: XX:XX:XX:XX:XX:XX"),
            id="ill-formed MAC address",
        ),
        pytest.param(
            _from("BareMetalHost"), ANNOTATED, "12:34:56:78:9A:BD", id="object compared lower-cased"
        ),
        pytest.param(
            {"string": "aa-bb-cc-dd-ee-ff"}, NO_HOST, "aa-bb-cc-dd-ee-ff", id="not normalised"
        ),
        pytest.param(
            {"string": "aa:bb:cc:dd:ee:ff\n"},
            NO_HOST,
            RenderError("bad MAC address: aa:bb:cc:dd:ee:ff\n"),
            id="trailing newline is not a MAC",
        ),
    ],
)
def test_link_mac_address(
    mac: dict[str, Any], host: BareMetalHost, expected: str | RenderError
) -> None:
    parsed = MacAddress.model_validate(mac)
    if isinstance(expected, RenderError):
        with pytest.raises(RenderError) as err:
            link_mac_address(parsed, host)
        assert str(err.value) == str(expected)
    else:
        assert link_mac_address(parsed, host) == expected


def test_no_mac_address_at_all_leaves_the_key_out() -> None:
    assert link_mac_address(None, NO_HOST) is None


@pytest.mark.parametrize(
    ("host", "expected"),
    [
        pytest.param(make_host(), RenderError("NICs list not populated"), id="No hardware details"),
        pytest.param(
            make_host(hardware=True), RenderError("NICs list not populated"), id="No Nics detail"
        ),
        pytest.param(
            make_host(nics=[]), RenderError("NIC name not found eth1"), id="Empty nic list"
        ),
        pytest.param(
            make_host(nics=[{"name": "eth0", "mac": "XX:XX:XX:XX:XX:XX"}]),
            RenderError("NIC name not found eth1"),
            id="Nic not found",
        ),
        pytest.param(
            make_host(nics=[{"name": "eth0", "mac": "X"}, {}, {"name": "eth1", "mac": "Y"}]),
            "Y",
            id="Nic found",
        ),
        pytest.param(
            make_host(nics=[{"name": "eth0", "mac": "X"}, {}, {"name": "eth1"}]),
            "",
            id="Nic found, Empty Mac",
        ),
    ],
)
def test_bmh_mac_by_name(host: BareMetalHost, expected: str | RenderError) -> None:
    if isinstance(expected, RenderError):
        with pytest.raises(RenderError) as err:
            bmh_mac_by_name("eth1", host)
        assert str(err.value) == str(expected)
    else:
        assert bmh_mac_by_name("eth1", host) == expected


BOOT = "52:54:00:aa:bb:01"
ONE_NIC = {"ethernets": [{"type": "phy", "id": "nic", "macAddress": {"fromHostInterface": "x"}}]}
VLAN_ON_ONE_NIC = {
    **ONE_NIC,
    "vlans": [
        {"id": "v", "vlanID": 9, "vlanLink": "nic", "macAddress": {"fromHostInterface": "x"}}
    ],
}
TWO_NICS = {
    "ethernets": [
        {"type": "phy", "id": "a", "macAddress": {"fromHostInterface": "x"}},
        {"type": "phy", "id": "b", "macAddress": {"string": "52:54:00:aa:bb:02"}},
    ]
}


@pytest.mark.parametrize(
    ("links", "host", "expected"),
    [
        pytest.param(ONE_NIC, make_host(boot_mac=BOOT), [BOOT], id="one ethernet: boot MAC"),
        pytest.param(
            VLAN_ON_ONE_NIC, make_host(boot_mac=BOOT), [BOOT, BOOT], id="vlan on the one ethernet"
        ),
        pytest.param(
            TWO_NICS,
            make_host(boot_mac=BOOT),
            "NICs list not populated; the host has not been inspected",
            id="two ethernets: error with advice",
        ),
        pytest.param(
            ONE_NIC,
            make_host(),
            "NICs list not populated; the host has not been inspected",
            id="no boot MAC: error with advice",
        ),
        pytest.param(
            ONE_NIC,
            make_host(boot_mac=BOOT, nics=[{"name": "eth0", "mac": "52:54:00:aa:bb:03"}]),
            "NIC name not found x",
            id="inspection data wins over the boot MAC",
        ),
    ],
)
def test_pre_inspection_rule(
    links: dict[str, Any], host: BareMetalHost, expected: list[str] | str
) -> None:
    parsed = Links.model_validate(links)
    if isinstance(expected, str):
        with pytest.raises(RenderError, match=f"^{expected}"):
            render_links(parsed, host)
        return
    rendered = render_links(parsed, host)
    macs = [link.get("ethernet_mac_address") or link.get("vlan_mac_address") for link in rendered]
    assert macs == expected
