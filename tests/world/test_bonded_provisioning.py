"""A bonded host on the working path goes all the way: `available`, then `provisioned` by CAPM3.

The ramdisk (community glean, per NIC) cannot bring up a bond, so the host's
Metal3PreprovisioningDataTemplate gives it the boot NIC alone, VLAN 100 tagged on it
(`bonded-boot-nic` in `examples/25-preprovisioning-template.yaml`); the bond + VLAN stays in the
Metal3DataTemplate that CAPM3 renders for the installed OS. Through event sources, broker,
functions, the BMO stand-in and the CAPM3 stand-in: the host is inspected on the boot NIC's
address, CAPM3 borrows our claim (same pool name, same address) and renders the bond, BMO
deploys on the pre-provisioning Secret (fast track) and boots the installed OS on CAPM3's data.
Every machine of the host ran with the one address it was inspected with.
"""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest
from kubernetes import client

from dhcpless import keys
from dhcpless.keys import ProvisioningState
from dhcpless_sandbox.demo.inventory import create
from dhcpless_sandbox.runtime.world import World
from dhcpless_sandbox.standins.capm3 import CAPM3Controller
from tests.support import objects
from tests.support import world_reads as reads
from tests.support.waits import eventually

NS = objects.NS
HOST = "storage-1"
BONDED = "bonded"
PREPROV = "bonded-boot-nic"
REF = f"metal3preprovisioningdatatemplates.{keys.CAPM3_GROUP}/{PREPROV}"
VM = "redfish-virtualmedia://192.0.2.1/redfish/v1/Systems/storage-1"
MAC = {"string": objects.MAC}
BOOT_NIC_ONLY: dict[str, Any] = {
    "links": {
        "ethernets": [{"type": "phy", "id": "eth0", "macAddress": MAC}],
        "vlans": [{"id": "vlan100", "vlanID": 100, "vlanLink": "eth0", "macAddress": MAC}],
    },
    "networks": objects.BOND_VLAN["networks"],
}
"""The same network as the bond's (VLAN 100, pool4), on the boot NIC alone."""


def _objects() -> list[dict[str, Any]]:
    preprov = {
        "apiVersion": f"{keys.CAPM3_GROUP}/{keys.CAPM3_VERSION}",
        "kind": "Metal3PreprovisioningDataTemplate",
        "metadata": {"name": PREPROV, "namespace": NS},
        "spec": {"preprovisioningNetworkData": BOOT_NIC_ONLY},
    }
    return [
        {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": NS}},
        objects.POOL4,
        objects.data_template(objects.BOND_VLAN, BONDED),
        preprov,
        objects.host(HOST, template=REF, bmc=VM),
    ]


def _link_types(api: client.ApiClient, secret: str) -> list[str]:
    """The link types of the network data in `secret` (`networkData`, as BMO reads it)."""
    found = client.CoreV1Api(api).read_namespaced_secret(secret, NS)
    raw = (found.data or {})[keys.NETWORK_DATA_KEY]
    document = json.loads(base64.b64decode(raw))
    return sorted(str(link["type"]) for link in document["links"])


def _machines(world: World) -> dict[str, set[tuple[str, ...]]]:
    """Which addresses each machine of the host configured (inspect, deploy, os)."""
    found: dict[str, set[tuple[str, ...]]] = {}
    for key, machine, addresses in list(world.bmo.boots):
        if key == (NS, HOST):
            found.setdefault(machine, set()).add(tuple(a.split("/")[0] for a in addresses))
    return found


@pytest.mark.slow
def test_a_bonded_host_on_the_boot_nic_template_is_provisioned(world: World) -> None:
    api = world.api_client()
    capm3 = CAPM3Controller(api, [objects.POOL4["metadata"]["name"]], BONDED)
    capm3.start()
    try:
        create(api, _objects())
        eventually(
            lambda: reads.state(api, HOST) == ProvisioningState.PROVISIONED, 90, "provisioned"
        )
    finally:
        capm3.stop()
    assert capm3.claimed == set()  # CAPM3 borrowed our claim: the same address for the OS
    (address,) = capm3.deployed[HOST].values()
    assert _link_types(api, HOST + keys.SECRET_NAME_SUFFIX) == ["phy", "vlan"]  # no bond
    assert "bond" in _link_types(api, f"{capm3.data_of[HOST]}-networkdata")
    machines = _machines(world)
    want = {(address,)}
    assert {m: machines.get(m) for m in ("inspect", "deploy", "os")} == dict.fromkeys(
        ("inspect", "deploy", "os"), want
    )
