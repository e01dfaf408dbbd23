"""A host whose BMC boots by PXE stays paused; the same host on virtual media is served.

Two hosts with the same template and data, one with an `ipmi://` BMC (iPXE: the config drive
never reaches its ramdisk), one with a `redfish-virtualmedia://` BMC. Through event sources,
broker, functions and the BMO stand-in: the first stays paused with one Warning naming the
driver, no claim and no Secret; the second reaches `available`. A third host, `ipmi://` too,
is released by hand with valid data: the BMO stand-in's ramdisk (PXE: no config drive) never
comes up, which is why the first must not be released.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from kubernetes import client

from dhcpless import keys
from dhcpless_sandbox.demo.inventory import create
from dhcpless_sandbox.runtime.world import World
from tests.support import objects
from tests.support import world_reads as reads
from tests.support.waits import eventually, stays

NS = objects.NS
REF = "metal3datatemplates.infrastructure.cluster.x-k8s.io/tmpl"
VM = "redfish-virtualmedia://192.0.2.1/redfish/v1/Systems/1"


STATIC = json.dumps(
    {
        "links": [{"id": "eth0", "type": "phy", "ethernet_mac_address": objects.MAC}],
        "networks": [
            {"id": "n4", "type": "ipv4", "link": "eth0", "network_id": "n4",
             "ip_address": "192.0.2.50", "netmask": "255.255.255.0"}
        ],
        "services": [],
    }
)  # fmt: skip
"""Data a virtual-media ramdisk would come up with: a static address on the boot NIC."""


def _by_hand(api: client.ApiClient) -> None:
    """A host someone released by hand, with valid static data, on an `ipmi://` BMC."""
    meta = client.V1ObjectMeta(name="by-hand", namespace=NS)
    body = client.V1Secret(metadata=meta, string_data={keys.NETWORK_DATA_KEY: STATIC})
    client.CoreV1Api(api).create_namespaced_secret(NS, body)
    create(api, [objects.host("by-hand", None, "by-hand", None, bmc="ipmi://192.0.2.8")])


def _objects() -> list[dict[str, Any]]:
    return [
        {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": NS}},
        objects.POOL4,
        objects.data_template(objects.IPV4),
        objects.host("pxe", template=REF, bmc="ipmi://192.0.2.9"),
        objects.host("served", template=REF, bmc=VM),
    ]


def _claims(api: client.ApiClient, name: str) -> list[str]:
    listed: Any = client.CustomObjectsApi(api).list_namespaced_custom_object(
        keys.IPAM_GROUP, keys.IPAM_VERSION, NS, "ipclaims"
    )
    found = [c["metadata"]["name"] for c in listed["items"]]
    return [c for c in found if c.startswith(name + "-")]


@pytest.mark.slow
def test_an_ipmi_host_stays_paused_and_a_virtual_media_host_is_served(world: World) -> None:
    api = world.api_client()
    create(api, _objects())
    _by_hand(api)
    eventually(lambda: reads.state(api, "served") == keys.ProvisioningState.AVAILABLE, 60, "served")
    (warning,) = eventually(
        lambda: reads.warnings(api, "pxe", "BMCBootsByPXE"), 30, "the refusal's Warning"
    )
    assert "BMC driver ipmi" in warning and "virtual-media" in warning
    eventually(lambda: (NS, "by-hand") in world.bmo.stuck, 60, "the by-hand host hangs")
    assert "ipmi" in world.bmo.stuck[(NS, "by-hand")]

    def still_refused() -> bool:
        host = reads.host(api, "pxe")
        return (
            host["metadata"]["annotations"].get(keys.PAUSED_ANNOTATION)
            == keys.PREPROVISIONING_PAUSE
            and not host["spec"].get("preprovisioningNetworkDataName")
            and not _claims(api, "pxe")
            and reads.state(api, "pxe") is None
        )

    stays(still_refused, 3.0, "the ipmi host stays paused, with no claim")
    assert len(reads.warnings(api, "pxe", "BMCBootsByPXE")) == 1  # resync ticks repeat no Warning
    assert reads.state(api, "by-hand") == keys.ProvisioningState.INSPECTING
