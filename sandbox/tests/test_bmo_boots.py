"""The BMO stand-in past inspection, against the sandbox: every machine a host runs.

Fast track keeps the inspection ramdisk (ironic-image `scripts/ironic-common.sh`); BMO updates
the node's network data in every registered state (`host_state_machine.go` `ensureRegistered`),
so the deploy and cleaning ramdisks boot on the pre-provisioning Secret *as it is then*; the
deployed OS gets `spec.networkData`, else that Secret (`host_config_data.go` `NetworkData`).
Each boot is glean's and lands on the wire.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from kubernetes import client

from dhcpless import keys
from dhcpless_sandbox.apiserver.server import SandboxServer
from dhcpless_sandbox.controllers.custom_objects import CustomObjects
from dhcpless_sandbox.demo.inventory import host
from dhcpless_sandbox.standins.bmo import BMOController
from dhcpless_sandbox.standins.ramdisk import GleanMode
from tests.support.waits import eventually

pytestmark = pytest.mark.slow  # a controller and glean boots against a sandbox
NS, NAME, SECRET = "default", "host-000", "mine"
MAC = "52:54:00:00:00:00"
KEY = (NS, NAME)


def _data(address: str) -> str:
    network = {"id": "n", "network_id": "n", "type": "ipv4", "link": "eno1",
               "ip_address": address, "netmask": "255.255.255.0", "routes": []}  # fmt: skip
    links = [{"id": "eno1", "type": "phy", "ethernet_mac_address": MAC}]
    return json.dumps({"links": links, "networks": [network], "services": []})


@pytest.fixture
def world() -> Iterator[tuple[client.ApiClient, BMOController]]:
    with SandboxServer() as server:
        server.load_builtin_crds()
        api = server.api_client()
        data = {keys.NETWORK_DATA_KEY: _data("10.5.0.7")}
        secret = client.V1Secret(metadata=client.V1ObjectMeta(name=SECRET), string_data=data)
        client.CoreV1Api(api).create_namespaced_secret(NS, secret)
        obj = host(0, NS)
        obj["metadata"]["annotations"] = {}
        obj["spec"]["preprovisioningNetworkDataName"] = SECRET
        CustomObjects(api, keys.BMO_GROUP, keys.BMO_VERSION).create("baremetalhosts", NS, obj)
        bmo = BMOController(server.api_client(), glean_mode=GleanMode.IN_PROCESS, workers=1)
        bmo.start()
        yield api, bmo
        bmo.stop()


def _state(api: client.ApiClient) -> str:
    found = CustomObjects(api, keys.BMO_GROUP, keys.BMO_VERSION).get("baremetalhosts", NS, NAME)
    return str((((found or {}).get("status") or {}).get("provisioning") or {}).get("state"))


def test_deploy_and_clean_boot_on_the_secret_as_it_is_then(
    world: tuple[client.ApiClient, BMOController],
) -> None:
    api, bmo = world
    hosts = CustomObjects(api, keys.BMO_GROUP, keys.BMO_VERSION)
    eventually(lambda: _state(api) == "available", 60, "inspected")
    assert bmo.wire[KEY] == ("10.5.0.7",)  # fast track: the ramdisk keeps running with it
    client.CoreV1Api(api).patch_namespaced_secret(
        SECRET, NS, {"stringData": {keys.NETWORK_DATA_KEY: _data("10.5.0.8")}}
    )
    hosts.patch("baremetalhosts", NS, NAME, {"spec": {"image": {"url": "http://i/os.qcow2"}}})
    eventually(lambda: _state(api) == "provisioned", 60, "provisioned")
    hosts.patch("baremetalhosts", NS, NAME, {"spec": {"image": None}})
    eventually(lambda: _state(api) == "available", 60, "cleaned")
    booted = [(machine, addresses) for key, machine, addresses in bmo.boots if key == KEY]
    assert booted == [
        ("inspect", ("10.5.0.7",)),
        ("deploy", ("10.5.0.8",)),
        ("os", ("10.5.0.8",)),  # no spec.networkData: the pre-provisioning Secret
        ("clean", ("10.5.0.8",)),
    ]
    assert bmo.wire[KEY] == ("10.5.0.8",)
