"""`duplicate_on_wire` (`sandbox.wire.duplicates`): an address configured by two live machines
counts; one live and one gone does not; prefixes do not hide a duplicate. In a world, two
machines configured with one address are counted from what the BMO stand-in's glean boots
wrote."""

from __future__ import annotations

import json
from typing import Any

import pytest
from kubernetes import client

from dhcpless import keys
from dhcpless.keys import ProvisioningState
from dhcpless_sandbox.demo.inventory import host
from dhcpless_sandbox.observe.wire import duplicates
from tests.scenarios.world_run import NS, Run, scenario_world


@pytest.mark.parametrize(
    ("machines", "live", "expected"),
    [
        pytest.param({"a": ("10.0.0.5",), "b": ("10.0.0.6",)}, {"a", "b"}, set(), id="distinct"),
        pytest.param({"a": ("10.0.0.5",), "b": ("10.0.0.5",)}, {"a", "b"}, {"10.0.0.5"},
                     id="two-live-one-address"),
        pytest.param({"a": ("10.0.0.5",), "b": ("10.0.0.5",)}, {"a"}, set(), id="one-gone"),
        pytest.param({"a": ("10.0.0.5/24",), "b": ("10.0.0.5",)}, {"a", "b"}, {"10.0.0.5"},
                     id="with-prefix"),
    ],
)  # fmt: skip
def test_duplicates(
    machines: dict[str, tuple[str, ...]], live: set[str], expected: set[str]
) -> None:
    assert duplicates(machines, live) == expected


@pytest.mark.slow
def test_two_machines_on_one_address_are_seen_on_the_wire() -> None:
    """The judge works on what glean configured: two hosts whose hand-written Secrets give
    both the same static address (no chain involved: not paused for us) boot with it, and the
    wire counts it once; the observer, which follows our objects only, cannot see it."""
    with scenario_world(False) as run:
        hosts = [host(i, NS) for i in range(2)]
        for obj in hosts:
            obj["metadata"]["annotations"] = {}
            obj["spec"]["preprovisioningNetworkDataName"] = obj["metadata"]["name"] + "-mine"
            _secret(run, obj, "192.168.200.7")
        run.create(hosts)
        run.reach([h["metadata"]["name"] for h in hosts], ProvisioningState.AVAILABLE)
    assert run.verdict["duplicate_on_wire"] == 1
    assert run.verdict["double_allocations"] == 0


def _secret(run: Run, host: dict[str, Any], address: str) -> None:
    mac = host["spec"]["bootMACAddress"]
    document = {
        "links": [{"id": "eno1", "type": "phy", "ethernet_mac_address": mac}],
        "networks": [{"id": "net", "network_id": "net", "type": "ipv4", "link": "eno1",
                      "ip_address": address, "netmask": "255.255.255.0", "routes": []}],
        "services": [],
    }  # fmt: skip
    body = client.V1Secret(
        metadata=client.V1ObjectMeta(name=host["spec"]["preprovisioningNetworkDataName"]),
        string_data={keys.NETWORK_DATA_KEY: json.dumps(document)},
    )
    client.CoreV1Api(run.api).create_namespaced_secret(NS, body)
