"""`duplicate_on_wire` counted by the hosts' own duplicate detection, on one bridge.

Two hosts boot one after the other in namespaces whose NICs are ports of one bridge; the
count is the addresses the wire found held twice (`netns_wire`: `arping -0` probes for IPv4,
the kernel's IPv6 DAD `dadfailed`). Two hosts forced onto the same dual-stack data count both
addresses; the same two hosts given what the chain wrote (our functions on a sandbox, the IPAM
stand-in allocating from one pool per family) count 0, and each comes up with all of its own.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from dhcpless import keys
from dhcpless.keys import RamdiskProfile
from tests.support import harness, objects, scenario
from tests.support.layouts import BOOT, LAYOUTS, OTHER
from tests.support.netns import Lab
from tests.support.netns_boot import CONSUMERS
from tests.support.netns_expect import missing, wanted
from tests.support.netns_wire import duplicate_on_wire

pytestmark = pytest.mark.netns
PROFILES = [pytest.param(profile, id=str(profile)) for profile in CONSUMERS]
MACS = (BOOT, OTHER)
DUAL_BY_HOST = {
    "links": {
        "ethernets": [{"type": "phy", "id": "eth0", "macAddress": {"fromHostInterface": "eth0"}}]
    },
    "networks": objects.DUAL["networks"],
}
"""The chain tests' dual-stack template, each host's link MAC its own (its boot NIC)."""


def _forced() -> list[tuple[dict[str, Any], str]]:
    hosts = []
    for mac in MACS:
        document = copy.deepcopy(LAYOUTS["dual"])
        document["links"][0]["ethernet_mac_address"] = mac
        hosts.append((document, mac))
    return hosts


def _from_the_chain(profile: RamdiskProfile) -> list[tuple[dict[str, Any], str]]:
    hosts = []
    for index, mac in enumerate(MACS):
        host = objects.host(f"host-{index}")
        host["spec"]["bootMACAddress"] = mac
        hosts.append(host)
    template = objects.data_template(DUAL_BY_HOST, profile=profile.value)
    with harness.running() as sandbox:
        world = [objects.POOL4, objects.POOL6, template, *hosts]
        result = scenario.run_chain(sandbox, world, harness.IDENTITIES)
    released = []
    for index, mac in enumerate(MACS):
        secret = result.secrets[f"host-{index}{keys.SECRET_NAME_SUFFIX}"]
        released.append((json.loads(secret.decoded(keys.NETWORK_DATA_KEY) or ""), mac))
    return released


@pytest.mark.parametrize("profile", PROFILES)
def test_a_forced_duplicate_is_seen_on_the_wire(lab: Lab, profile: RamdiskProfile) -> None:
    found, _ = duplicate_on_wire(lab, _forced(), profile)
    assert found == {"192.168.0.10", "2001:db8::10"}


@pytest.mark.parametrize("profile", PROFILES)
def test_what_the_chain_wrote_is_no_duplicate_on_the_wire(
    lab: Lab, profile: RamdiskProfile
) -> None:
    hosts = _from_the_chain(profile)
    found, booted = duplicate_on_wire(lab, hosts, profile)
    assert found == set()
    for (document, _), one in zip(hosts, booted, strict=True):
        want = wanted(document, one.host.nics)
        assert len(want.addresses) == 2
        assert missing(want, one.state()) == []
