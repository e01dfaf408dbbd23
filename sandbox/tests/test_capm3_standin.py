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
from dhcpless_sandbox.apiserver.server import SandboxServer
from dhcpless_sandbox.controllers.custom_objects import CustomObjects
from dhcpless_sandbox.demo.inventory import POOL, create, inventory
from dhcpless_sandbox.standins import capm3_objects
from dhcpless_sandbox.standins.capm3 import CAPM3Controller
from dhcpless_sandbox.standins.ipam import IPAMController
from tests.support.waits import eventually

pytestmark = pytest.mark.slow  # controllers against a sandbox, several seconds on a loaded machine
NS, HOST = "c3", "host-000"
DATA = "preprov-0"
"""The Metal3Data of the first host: `<template>-<index>` (`createData`), not the host's name."""


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
    claim = _ipam(server).get("ipclaims", NS, f"{DATA}-{POOL}")
    assert claim is not None and _owners(claim) == ["Metal3Data"]
    assert capm3.claimed == {f"{DATA}-{POOL}"}
    host = CustomObjects(server.api_client(), keys.BMO_GROUP, keys.BMO_VERSION).get(
        "baremetalhosts", NS, HOST
    )
    assert host is not None
    assert host["spec"]["networkData"]["name"] == f"{DATA}-networkdata"
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
    eventually(lambda: capm3.requeues[DATA] >= 3, 30, "requeues while not owned")
    assert HOST not in capm3.deployed and capm3.claimed == set()  # never made its own
    capm3_api = CustomObjects(server.api_client(), keys.CAPM3_GROUP, keys.CAPM3_VERSION)
    data = capm3_api.get("metal3datas", NS, DATA)
    assert data is not None
    owner = {"apiVersion": f"{keys.CAPM3_GROUP}/{keys.CAPM3_VERSION}", "kind": "Metal3Data",
             "name": DATA, "uid": data["metadata"]["uid"]}  # fmt: skip
    ipam.patch("ipclaims", NS, f"{HOST}-{POOL}", {"metadata": {"ownerReferences": [owner]}})
    eventually(lambda: HOST in capm3.deployed, 30, "provisioned with the lent claim")
    lent = ipam.get("ipclaims", NS, f"{HOST}-{POOL}")
    address = ipam.get("ipaddresses", NS, lent["status"]["address"]["name"]) if lent else None
    assert address is not None and capm3.deployed[HOST][POOL] == address["spec"]["address"]


@pytest.mark.parametrize(
    ("taken", "expected"),
    [
        pytest.param(set(), 0, id="first"),
        pytest.param({0, 1}, 2, id="next"),
        pytest.param({0, 2}, 1, id="a-gap-first"),
    ],
)
def test_metal3data_index_is_the_lowest_free(taken: set[int], expected: int) -> None:
    """`metal3datatemplate_manager.go` `createData`: a gap first, else the next index."""
    assert capm3_objects.lowest_free(taken) == expected
    assert capm3_objects.data_name("worker", expected) == f"worker-{expected}"


@pytest.mark.parametrize(
    ("by_host", "name", "labels"),
    [
        pytest.param(False, "worker-0-pool", {"from": "claim"}, id="default-metal3data-name"),
        pytest.param(True, "host-9-pool", {"from": "claim", keys.CAPM3_DATA_NAME_LABEL: "worker-0",
                                            keys.CAPM3_POOL_NAME_LABEL: "pool"},
                     id="bmh-name-preallocation"),
    ],
)  # fmt: skip
def test_claim_names_and_labels_as_m3ipclaimobjectmeta(
    by_host: bool, name: str, labels: dict[str, str]
) -> None:
    """`m3IPClaimObjectMeta`: the Metal3Data's labels; data/pool labels only with the flag."""
    data = {"metadata": {"name": "worker-0", "namespace": NS, "uid": "u",
                         "labels": {"from": "claim"}}}  # fmt: skip
    claim = capm3_objects.ip_claim(data, "pool", "host-9", by_host=by_host)
    assert (claim["metadata"]["name"], claim["metadata"]["labels"]) == (name, labels)
    assert claim["metadata"]["ownerReferences"][0]["uid"] == "u"


def test_a_failed_claim_of_its_own_fails_the_metal3data(
    world: tuple[SandboxServer, CAPM3Controller],
) -> None:
    """`addressFromM3Claim`: `status.errorMessage` on its claim sets the Metal3Data's error."""
    server, capm3 = world
    pools = CustomObjects(server.api_client(), keys.IPAM_GROUP, keys.IPAM_VERSION)
    pools.delete("ippools", NS, POOL)  # IPAM fails nothing without a pool: fail it by hand
    capm3.start()
    eventually(lambda: f"{DATA}-{POOL}" in capm3.claimed, 30, "its own claim")
    ipam = _ipam(server)
    ipam.patch_status("ipclaims", NS, f"{DATA}-{POOL}", {"errorMessage": "Exhausted IP Pools"})
    eventually(lambda: DATA in capm3.failed, 30, "failed")
    assert capm3.failed[DATA] == f"IP Allocation for {POOL} failed : Exhausted IP Pools"
    found = CustomObjects(server.api_client(), keys.CAPM3_GROUP, keys.CAPM3_VERSION).get(
        "metal3datas", NS, DATA
    )
    assert found is not None and found["status"]["errorMessage"] == capm3.failed[DATA]
    assert HOST not in capm3.deployed


def test_deprovision_deletes_metal3data_name_claim_whoever_made_it(
    world: tuple[SandboxServer, CAPM3Controller],
) -> None:
    """`releaseAddressFromM3Pool` deletes `<metal3data>-<pool>` by name (not only its own), and
    `Delete` keeps `consumerRef` until the host left the provisioning states."""
    server, capm3 = world
    capm3.start()
    eventually(lambda: HOST in capm3.deployed, 30, "provisioned")
    ipam = _ipam(server)
    claim = ipam.get("ipclaims", NS, f"{DATA}-{POOL}")
    assert claim is not None
    someone = {"apiVersion": "v1", "kind": "ConfigMap", "name": "someone", "uid": "other"}
    ipam.patch("ipclaims", NS, f"{DATA}-{POOL}", {"metadata": {"ownerReferences": [someone]}})
    hosts = CustomObjects(server.api_client(), keys.BMO_GROUP, keys.BMO_VERSION)
    hosts.patch_status("baremetalhosts", NS, HOST, {"provisioning": {"state": "provisioned"}})
    assert capm3.deprovision(NS, HOST, again=False) == [f"{DATA}-{POOL}"]
    eventually(lambda: ipam.get("ipclaims", NS, f"{DATA}-{POOL}") is None, 30, "deleted")

    def consumer() -> object:
        return ((hosts.get("baremetalhosts", NS, HOST) or {}).get("spec") or {}).get("consumerRef")

    assert consumer() is not None  # still provisioned: CAPM3 waits for BMO
    hosts.patch_status("baremetalhosts", NS, HOST, {"provisioning": {"state": "available"}})
    eventually(lambda: consumer() is None, 30, "consumerRef cleared once available")
