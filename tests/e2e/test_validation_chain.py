"""Pre-unpause validation through the chain (issue 6 item 4), with the e2e driver.

Covers, one passing and one failing template per rule: the failing host stays paused, no
Secret is written, no host is patched, and the function that rendered wrote nothing but
`InvalidNetworkData` Warning Events whose messages name the rule and the link, network or pool
(the sandbox audit shows it). Includes issue 4: a template whose NIC MAC is not the host's boot
MAC cannot configure the boot NIC, so the host is refused unpausing with an Event saying so.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from dhcpless import keys
from tests.support import harness, objects, scenario

pytestmark = pytest.mark.e2e
Obj = dict[str, Any]
OTHER_MAC = "52:54:00:aa:bb:99"


def template(change: dict[str, Any] | None = None, links: Obj | None = None) -> Obj:
    """IPv4 on the boot NIC (objects.IPV4), with one part replaced."""
    data: Obj = copy.deepcopy(objects.IPV4)
    if links is not None:
        data["links"] = links
    data.update(change or {})
    return data


def eth(mac: str = objects.MAC, link_id: str = "eth0") -> Obj:
    return {"type": "phy", "id": link_id, "macAddress": {"string": mac}}


def vlan(link_id: str, parent: str) -> Obj:
    return {"id": link_id, "vlanID": 7, "vlanLink": parent, "macAddress": {"string": objects.MAC}}


def pool4(**spec: Any) -> Obj:
    pool: Obj = copy.deepcopy(objects.POOL4)
    pool["spec"].update(spec)
    return pool


ON_VLAN = {"networks": {"ipv4": [{**objects.IPV4["networks"]["ipv4"][0], "link": "v7"}]}}
OVERLAPPING = {**pool4(), "metadata": {"name": "other", "namespace": objects.NS}}
APART = {**OVERLAPPING, "spec": {**OVERLAPPING["spec"], "pools": [{"start": "192.168.10.100"}]}}
CASES = [
    pytest.param(template(), [objects.POOL4], None, "", id="pass: IPv4 on the boot NIC"),
    pytest.param(
        template(links={"ethernets": [eth(OTHER_MAC)]}),
        [objects.POOL4],
        "boot-mac",
        f"no NIC link has the boot MAC {objects.MAC}",
        id="fail (issue 4): the template's NIC is not the boot NIC",
    ),
    pytest.param(
        template(links={"ethernets": [eth("52-54-00-AA-BB-01")]}),
        [objects.POOL4],
        "link-mac",
        "link \"eth0\" (phy): ethernet_mac_address uses '-' separators",
        id="fail: dash-separated MAC",
    ),
    pytest.param(
        template(ON_VLAN, links={"ethernets": [eth()], "vlans": [vlan("v7", "eth0")]}),
        [objects.POOL4],
        None,
        "",
        id="pass: static network on a VLAN of the boot NIC",
    ),
    pytest.param(
        template(ON_VLAN, links={"ethernets": [eth()], "vlans": [vlan("v7", "eth9")]}),
        [objects.POOL4],
        "link-reference",
        'vlan "v7" names link "eth9", which does not exist',
        id="fail: VLAN on a missing link",
    ),
    pytest.param(
        template(),
        [pool4(gateway="192.168.11.1")],
        "route",
        "gateway 192.168.11.1 is not on-link in 192.168.10.0/24",
        id="fail: gateway off-link",
    ),
    pytest.param(
        template(),
        [pool4(pools=[{"start": "192.168.10.0", "end": "192.168.10.0"}])],
        "address",
        "192.168.10.0/24 is the network address of 192.168.10.0/24",
        id="fail: the pool hands out its network address",
    ),
    pytest.param(
        template(),
        [pool4(dnsServers=["224.0.0.1"])],
        "dns",
        'DNS server "224.0.0.1" is not usable',
        id="fail: multicast DNS server",
    ),
    pytest.param(
        template(),
        [objects.POOL4, APART],
        None,
        "",
        id="pass: another pool, no overlap",
    ),
    pytest.param(
        template(),
        [objects.POOL4, OVERLAPPING],
        "pool-overlap",
        'IPPool "metal3/pool4" overlaps IPPool "metal3/other" at 192.168.10.10-192.168.10.20',
        id="fail: another pool hands out the same addresses",
    ),
]


@pytest.mark.parametrize(("network_data", "pools", "rule", "fragment"), CASES)
def test_render_path_validates_before_writing(
    network_data: Obj, pools: list[Obj], rule: str | None, fragment: str
) -> None:
    objs = [*pools, objects.data_template(network_data), objects.host()]
    with harness.running() as sandbox:
        result = scenario.run_chain(sandbox, objs, harness.IDENTITIES)
        with sandbox.api_client() as api:
            events = harness.host_events(api, "host-0")
        writes = {
            (r.verb, r.resource) for f in harness.FUNCTIONS for r in harness.writes(sandbox, f)
        }
    host = result.hosts["host-0"]
    if rule is None:
        assert keys.PAUSED_ANNOTATION not in host.annotations
        assert "InvalidNetworkData" not in {reason for _, reason, _ in events}
        return
    assert host.annotations[keys.PAUSED_ANNOTATION] == keys.PREPROVISIONING_PAUSE
    assert result.secrets == {} and set(result.statuses) == {204}
    assert writes == {("create", "ipclaims"), ("create", "events")}  # no Secret, no patch
    invalid = [m for kind, reason, m in events if reason == "InvalidNetworkData"]
    assert all(kind == "Warning" for kind, reason, _ in events if reason == "InvalidNetworkData")
    assert any(f": {rule}: " in m and fragment in m for m in invalid), invalid
