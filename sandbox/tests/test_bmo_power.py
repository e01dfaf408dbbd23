"""The BMO stand-in's power, Events and delete path (`standins.bmo_power`), against the sandbox.

`online: false` powers an available or provisioned host off (its machine leaves the wire) and
`online: true` on again, each with BMO's `PowerOff`/`PowerOn` Event; every transition writes the
Event BMO writes (`kubectl events --for bmh/NAME` shows them); deleting a provisioned host
deprovisions it (the cleaning ramdisk boots), powers it off, and only then lets it go.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from kubernetes import client

from dhcpless import keys
from dhcpless_sandbox.apiserver.server import SandboxServer
from dhcpless_sandbox.controllers.custom_objects import CustomObjects
from dhcpless_sandbox.demo.inventory import host
from dhcpless_sandbox.standins.bmo import BMOController
from dhcpless_sandbox.standins.bmo_power import HOST_FINALIZER
from dhcpless_sandbox.standins.ramdisk import GleanMode
from tests.support.waits import eventually

from .kubectl_helpers import ok, runner

pytestmark = pytest.mark.slow  # a controller and glean boots against a sandbox
NS, NAME, SECRET = "default", "host-000", "mine"
MAC = "52:54:00:00:00:00"
KEY = (NS, NAME)
IMAGE = {"url": "http://images/os.qcow2"}


def _data() -> str:
    network = {"id": "n", "network_id": "n", "type": "ipv4", "link": "eno1",
               "ip_address": "10.5.0.7", "netmask": "255.255.255.0", "routes": []}  # fmt: skip
    links = [{"id": "eno1", "type": "phy", "ethernet_mac_address": MAC}]
    return json.dumps({"links": links, "networks": [network], "services": []})


@pytest.fixture
def server() -> Iterator[SandboxServer]:
    with SandboxServer() as started:
        started.load_builtin_crds()
        yield started


@pytest.fixture
def bmo(server: SandboxServer) -> Iterator[BMOController]:
    api = server.api_client()
    data = {keys.NETWORK_DATA_KEY: _data()}
    secret = client.V1Secret(metadata=client.V1ObjectMeta(name=SECRET), string_data=data)
    client.CoreV1Api(api).create_namespaced_secret(NS, secret)
    obj = host(0, NS)
    obj["metadata"]["annotations"] = {}
    obj["spec"]["preprovisioningNetworkDataName"] = SECRET
    CustomObjects(api, keys.BMO_GROUP, keys.BMO_VERSION).create("baremetalhosts", NS, obj)
    controller = BMOController(server.api_client(), glean_mode=GleanMode.IN_PROCESS, workers=1)
    controller.start()
    yield controller
    controller.stop()


def _hosts(server: SandboxServer) -> CustomObjects:
    return CustomObjects(server.api_client(), keys.BMO_GROUP, keys.BMO_VERSION)


def _status(server: SandboxServer) -> dict[str, Any]:
    found = _hosts(server).get("baremetalhosts", NS, NAME)
    return dict((found or {}).get("status") or {})


def _at(server: SandboxServer, state: str, powered: bool) -> bool:
    status = _status(server)
    now = (status.get("provisioning") or {}).get("state")
    return bool(now == state and status.get("poweredOn") is powered)


def _reasons(bmo: BMOController) -> list[str]:
    return [reason for key, reason in list(bmo.events) if key == KEY]


def test_online_false_powers_off_and_true_on_again(
    server: SandboxServer, bmo: BMOController
) -> None:
    eventually(lambda: _at(server, "available", True), 60, "inspected")
    assert bmo.wire[KEY] == ("10.5.0.7",)
    _hosts(server).patch("baremetalhosts", NS, NAME, {"spec": {"online": False}})
    eventually(lambda: _at(server, "available", False), 30, "powered off")
    assert KEY not in bmo.wire  # the fast-track ramdisk stopped with the machine
    _hosts(server).patch("baremetalhosts", NS, NAME, {"spec": {"online": True}})
    eventually(lambda: _at(server, "available", True), 30, "powered on")
    assert _reasons(bmo)[-2:] == ["PowerOff", "PowerOn"]


def test_every_transition_writes_bmos_event_as_kubectl_shows_it(
    server: SandboxServer, bmo: BMOController, tmp_path: Path
) -> None:
    eventually(lambda: _at(server, "available", True), 60, "inspected")
    _hosts(server).patch("baremetalhosts", NS, NAME, {"spec": {"image": IMAGE}})
    eventually(lambda: _at(server, "provisioned", True), 60, "provisioned")
    expected = ["Registered", "InspectionStarted", "InspectionComplete"]
    expected += ["ProvisioningStarted", "ProvisioningComplete"]
    assert _reasons(bmo) == expected
    kubectl = runner(server, tmp_path)
    shown = ok(kubectl("events", "--for", f"baremetalhost/{NAME}", "-n", NS))
    assert all(reason in shown for reason in expected), shown
    assert f"Image provisioning completed for {IMAGE['url']}" in shown
    events = client.CoreV1Api(server.api_client()).list_namespaced_event(NS).items
    assert {(e.source.component if e.source else "", e.type) for e in events} == {
        ("metal3-baremetal-controller", "Normal")
    }


def test_deleting_a_provisioned_host_deprovisions_it_first(
    server: SandboxServer, bmo: BMOController
) -> None:
    eventually(lambda: _at(server, "available", True), 60, "inspected")
    _hosts(server).patch("baremetalhosts", NS, NAME, {"spec": {"image": IMAGE}})
    eventually(lambda: _at(server, "provisioned", True), 60, "provisioned")
    found = _hosts(server).get("baremetalhosts", NS, NAME) or {}
    assert HOST_FINALIZER in found["metadata"]["finalizers"]
    client.CustomObjectsApi(server.api_client()).delete_namespaced_custom_object(
        keys.BMO_GROUP, keys.BMO_VERSION, NS, "baremetalhosts", NAME
    )
    eventually(lambda: _hosts(server).get("baremetalhosts", NS, NAME) is None, 60, "deleted")
    machines = [machine for key, machine, _ in bmo.boots if key == KEY]
    assert machines[-1] == "clean"  # the cleaning ramdisk ran before the host went
    assert _reasons(bmo)[-3:] == ["DeprovisioningStarted", "DeprovisioningComplete", "PowerOff"]
    assert KEY not in bmo.wire


def test_a_host_never_given_an_image_is_deleted_at_once(
    server: SandboxServer, bmo: BMOController
) -> None:
    eventually(lambda: _at(server, "available", True), 60, "inspected")
    found = _hosts(server).get("baremetalhosts", NS, NAME) or {}
    assert HOST_FINALIZER not in (found["metadata"].get("finalizers") or [])
