"""The CAPM3 stand-in's claim lookup and ownership rules, without the chain.

cluster-api-provider-metal3 `baremetal/metal3data_manager.go`: `ensureM3IPClaim` GETs
`<metal3data>-<pool>`, else `<bmh>-<pool>`, else creates `<metal3data>-<pool>` (the default
naming) owned by the Metal3Data; `addressFromM3Claim` uses a claim only when one of its
ownerReferences carries the Metal3Data's UID, and otherwise requeues. With an address, the
rendered networkData Secret and the host's `spec.image`/`spec.networkData` follow.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from dhcpless import keys
from dhcpless.crds import crd_files
from dhcpless.sandbox.apiserver import SandboxServer
from dhcpless.sandbox.controllers.custom_objects import CustomObjects
from dhcpless.sandbox.standins.capm3 import CAPM3Controller, data_name
from dhcpless.sandbox.standins.ipam import IPAMController
from dhcpless.tools.demo.inventory import POOL, create, inventory
from tests.support.waits import eventually

pytestmark = pytest.mark.slow  # controllers against a sandbox, several seconds on a loaded machine
NS, HOST = "c3", "host-000"


@pytest.fixture
def world() -> Iterator[tuple[SandboxServer, CAPM3Controller]]:
    """Pool, template and one available, unpaused host; IPAM and the CAPM3 stand-in."""
    with SandboxServer() as server:
        server.load_builtin_crds()
        for crd in crd_files():  # Metal3PreprovisioningDataTemplate (in the inventory)
            server.apply_crd_text(crd.read_text())
        api = server.api_client()
        objects = inventory(1, NS)
        del objects[-1]["metadata"]["annotations"][keys.PAUSED_ANNOTATION]
        create(api, objects)
        hosts = CustomObjects(api, keys.BMO_GROUP, keys.BMO_VERSION)
        hosts.patch_status("baremetalhosts", NS, HOST, {"provisioning": {"state": "available"}})
        ipam, capm3 = IPAMController(server.api_client()), CAPM3Controller(api, [POOL])
        ipam.start()
        yield server, capm3
        capm3.stop()
        ipam.stop()


def _ipam(server: SandboxServer) -> CustomObjects:
    return CustomObjects(server.api_client(), keys.IPAM_GROUP, keys.IPAM_VERSION)


def _owners(claim: dict[str, Any]) -> list[str]:
    return [o["kind"] for o in claim["metadata"].get("ownerReferences") or []]


def test_without_a_claim_it_makes_its_own_and_provisions(
    world: tuple[SandboxServer, CAPM3Controller],
) -> None:
    server, capm3 = world
    capm3.start()
    eventually(lambda: HOST in capm3.deployed, 30, "provisioned")
    claim = _ipam(server).get("ipclaims", NS, f"{data_name(HOST)}-{POOL}")
    assert claim is not None and _owners(claim) == ["Metal3Data"]
    assert capm3.claimed == {f"{data_name(HOST)}-{POOL}"}
    host = CustomObjects(server.api_client(), keys.BMO_GROUP, keys.BMO_VERSION).get(
        "baremetalhosts", NS, HOST
    )
    assert host is not None
    assert host["spec"]["networkData"]["name"] == f"{data_name(HOST)}-networkdata"
    assert host["spec"]["image"]["url"]


def test_a_bmh_named_claim_it_does_not_own_is_waited_on_until_lent(
    world: tuple[SandboxServer, CAPM3Controller],
) -> None:
    server, capm3 = world
    ipam = _ipam(server)
    claim = {"apiVersion": f"{keys.IPAM_GROUP}/{keys.IPAM_VERSION}", "kind": "IPClaim",
             "metadata": {"name": f"{HOST}-{POOL}", "namespace": NS},
             "spec": {"pool": {"name": POOL, "namespace": NS}}}  # fmt: skip
    ipam.create("ipclaims", NS, claim)
    capm3.start()
    eventually(lambda: capm3.requeues[data_name(HOST)] >= 3, 30, "requeues while not owned")
    assert HOST not in capm3.deployed and capm3.claimed == set()  # never made its own
    capm3_objects = CustomObjects(server.api_client(), keys.CAPM3_GROUP, keys.CAPM3_VERSION)
    data = capm3_objects.get("metal3datas", NS, data_name(HOST))
    assert data is not None
    owner = {"apiVersion": f"{keys.CAPM3_GROUP}/{keys.CAPM3_VERSION}", "kind": "Metal3Data",
             "name": data_name(HOST), "uid": data["metadata"]["uid"]}  # fmt: skip
    ipam.patch("ipclaims", NS, f"{HOST}-{POOL}", {"metadata": {"ownerReferences": [owner]}})
    eventually(lambda: HOST in capm3.deployed, 30, "provisioned with the lent claim")
    lent = ipam.get("ipclaims", NS, f"{HOST}-{POOL}")
    address = ipam.get("ipaddresses", NS, lent["status"]["address"]["name"]) if lent else None
    assert address is not None and capm3.deployed[HOST][POOL] == address["spec"]["address"]
