"""The BMO stand-in (metal3.md §e) and its glean ramdisk boot.

Covers: a paused host (any value) is never touched; unpausing without the Secret gives a
`registration error` with BMO's message, retried until the Secret appears; with the Secret
the host goes registering → inspecting → available and the Secret gets BMO's label and
finalizer; network data that does not configure the boot NIC leaves the host `inspecting`
and reported stuck. The ramdisk boot itself is table-tested for IPv4, IPv6, bond+VLAN, wrong
MAC, in both glean modes and for every ramdisk profile (glean run once per NIC, as the ramdisk
runs it): a bond stops every glean writer, IPv6 alone stops glean's redhat writer.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from typing import Any, cast

import pytest
from kubernetes import client

from dhcpless import keys
from dhcpless.keys import RamdiskProfile
from dhcpless_sandbox.standins.bmh_status import missing_secret_message
from dhcpless_sandbox.standins.bmo import BMOController
from dhcpless_sandbox.standins.ramdisk import GleanMode, ramdisk_boot
from tests.support.waits import eventually

NS, MAC = "default", "52:54:00:aa:bb:01"


def link(mac: str = MAC, link_id: str = "eth0") -> dict[str, Any]:
    return {"id": link_id, "type": "phy", "ethernet_mac_address": mac, "mtu": 1500}


def network(kind: str, ip: str, mask: str, on: str = "eth0") -> dict[str, Any]:
    return {
        "id": "n",
        "type": kind,
        "link": on,
        "ip_address": ip,
        "netmask": mask,
        "routes": [],
        "network_id": "",
    }


V4 = {
    "links": [link()],
    "networks": [network("ipv4", "192.168.0.10", "255.255.255.0")],
    "services": [],
}
V6 = {
    "links": [link()],
    "networks": [network("ipv6", "2001:db8::5", "ffff:ffff:ffff:ffff::")],
    "services": [],
}
BOND_VLAN = {
    "links": [
        {
            "id": "bond0",
            "type": "bond",
            "bond_links": ["nic1", "nic2"],
            "bond_mode": "802.3ad",
            "ethernet_mac_address": MAC,
            "mtu": 1500,
            "bond_xmit_hash_policy": "",
        },
        link(MAC, "nic1"),
        link("52:54:00:aa:bb:02", "nic2"),
        {
            "id": "vlan100",
            "type": "vlan",
            "vlan_id": 100,
            "vlan_link": "bond0",
            "vlan_mac_address": MAC,
            "mtu": 1500,
        },
    ],
    "networks": [network("ipv4", "10.0.0.5", "255.255.255.0", on="vlan100")],
    "services": [],
}
DUAL = {
    "links": [link()],
    "networks": [
        network("ipv4", "192.168.0.10", "255.255.255.0"),
        {**network("ipv6", "2001:db8::5", "ffff:ffff:ffff:ffff::"), "id": "n6"},
    ],
    "services": [],
}
WRONG_MAC = {
    "links": [link("52:54:00:ff:ff:ff")],
    "networks": [network("ipv4", "192.168.0.10", "255.255.255.0")],
    "services": [],
}


GLEAN = [p for p in RamdiskProfile if p.runs_glean]


@pytest.mark.parametrize("mode", [pytest.param(m, id=m.value) for m in GleanMode])
@pytest.mark.parametrize("profile", [pytest.param(p, id=p.value) for p in RamdiskProfile])
@pytest.mark.parametrize(
    ("data", "addresses", "fails_on"),
    [
        pytest.param(V4, ("192.168.0.10",), [], id="ipv4"),
        pytest.param(DUAL, ("192.168.0.10", "2001:db8::5"), [], id="dual-stack"),
        # per NIC, the bond's other port is not in glean's pruned `sys_interfaces`: KeyError
        pytest.param(BOND_VLAN, ("10.0.0.5",), GLEAN, id="bond-vlan"),
        pytest.param(WRONG_MAC, (), list(RamdiskProfile), id="wrong-mac"),
        pytest.param({}, (), list(RamdiskProfile), id="no-data"),
    ],
)
def test_ramdisk_boot(
    data: dict[str, Any],
    addresses: tuple[str, ...],
    fails_on: list[RamdiskProfile],
    mode: GleanMode,
    profile: RamdiskProfile,
) -> None:
    expected = () if profile in fails_on else addresses
    assert ramdisk_boot(data, MAC.upper(), mode, profile).addresses == expected


@pytest.mark.parametrize("mode", [pytest.param(m, id=m.value) for m in GleanMode])
@pytest.mark.parametrize(
    ("profile", "addresses", "reason"),
    [
        pytest.param(RamdiskProfile.GLEAN_DEBIAN, ("2001:db8::5",), "eth0 configured", id="debian"),
        # glean 1.25.1's redhat writer appends IPv6 to a file its IPv4 branch wrote first:
        # with no IPv4 network on the interface it stops (ifcfg: assert; keyfile: KeyError)
        pytest.param(RamdiskProfile.GLEAN_EL9, (), "glean for eth0 exited 1", id="el9"),
        pytest.param(RamdiskProfile.GLEAN_EL10, (), "glean for eth0 exited 1", id="el10"),
    ],
)
def test_ipv6_only_boot(
    mode: GleanMode, profile: RamdiskProfile, addresses: tuple[str, ...], reason: str
) -> None:
    result = ramdisk_boot(V6, MAC, mode, profile)
    assert (result.addresses, result.reason.startswith(reason)) == (addresses, True)


@pytest.fixture
def bmo(api: client.ApiClient) -> Iterator[BMOController]:
    controller = BMOController(api, workers=2)
    controller.start()
    yield controller
    controller.stop()


def make_host(api: client.ApiClient, name: str, pause: str | None, data_name: str = "") -> None:
    annotations = {keys.PAUSED_ANNOTATION: pause} if pause is not None else {}
    spec: dict[str, Any] = {"online": True, "bootMACAddress": MAC}
    if data_name:
        spec["preprovisioningNetworkDataName"] = data_name
    body = {
        "apiVersion": "metal3.io/v1alpha1",
        "kind": "BareMetalHost",
        "metadata": {"name": name, "namespace": NS, "annotations": annotations},
        "spec": spec,
    }
    client.CustomObjectsApi(api).create_namespaced_custom_object(
        "metal3.io", "v1alpha1", NS, "baremetalhosts", body
    )


def make_secret(api: client.ApiClient, name: str, data: dict[str, Any]) -> None:
    encoded = base64.b64encode(json.dumps(data).encode()).decode()
    body = {"metadata": {"name": name, "namespace": NS}, "data": {"networkData": encoded}}
    client.CoreV1Api(api).create_namespaced_secret(NS, cast(Any, body))


def host_status(api: client.ApiClient, name: str) -> dict[str, Any]:
    host = client.CustomObjectsApi(api).get_namespaced_custom_object(
        "metal3.io", "v1alpha1", NS, "baremetalhosts", name
    )
    return cast(dict[str, Any], host).get("status") or {}


def state(api: client.ApiClient, name: str) -> str:
    return str((host_status(api, name).get("provisioning") or {}).get("state", ""))


@pytest.mark.parametrize(
    "pause",
    [
        pytest.param(keys.PREPROVISIONING_PAUSE, id="ours"),
        pytest.param("", id="empty-value"),
        pytest.param(keys.CAPM3_PAUSE, id="capm3"),
    ],
)
def test_paused_host_untouched(api: client.ApiClient, bmo: BMOController, pause: str) -> None:
    make_host(api, "paused", pause)
    make_host(api, "canary", None)  # proves the controller is running
    eventually(lambda: state(api, "canary") == "inspecting")
    assert host_status(api, "paused") == {}


def test_missing_secret_is_a_registration_error(api: client.ApiClient, bmo: BMOController) -> None:
    make_host(api, "h", None, data_name="h-net")
    status = eventually(
        lambda: host_status(api, "h") if host_status(api, "h").get("errorType") else None
    )
    assert status["errorType"] == "registration error"
    assert status["errorMessage"] == missing_secret_message("h-net", NS)
    assert status["operationalStatus"] == "error"
    assert status["provisioning"]["state"] == "registering"
    make_secret(api, "h-net", V4)  # BMO does not watch it: its backoff retry finds it
    eventually(lambda: state(api, "h") == "available")
    assert host_status(api, "h")["errorMessage"] == ""
    meta = client.CoreV1Api(api).read_namespaced_secret("h-net", NS).metadata
    assert meta is not None
    assert keys.BMO_SECRET_FINALIZER in (meta.finalizers or [])
    assert (meta.labels or {})[keys.BMO_SECRET_LABEL] == keys.BMO_SECRET_LABEL_VALUE


def test_wrong_mac_stays_inspecting(api: client.ApiClient, bmo: BMOController) -> None:
    make_secret(api, "w-net", WRONG_MAC)
    make_host(api, "w", None, data_name="w-net")
    reason = eventually(lambda: bmo.stuck.get((NS, "w")))
    assert "no static address for the boot NIC" in reason
    assert state(api, "w") == "inspecting"


def test_backoff_stays_bounded_after_many_tries(api: client.ApiClient) -> None:
    """A host that fails for hours is retried every `_BACKOFF_MAX` seconds; the delay must not
    overflow (an OverflowError would kill the controller's worker thread). The delay is worked
    out without running the controller, whose stop costs seconds."""
    bmo, key = BMOController(api, workers=2), ("default", "forever")
    bmo._retries[key] = 5000
    assert bmo._backoff(key) == 5.0
