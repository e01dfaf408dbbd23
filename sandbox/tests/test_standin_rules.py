"""Upstream rules the IPAM and BMO stand-ins follow (issue 12, "a world that behaves like
upstream"), each checked on the pure decision or on the controller against the sandbox:

* IPAM `allocationStrategy: random` (ip-address-manager `ipam/ippool_manager.go`
  `selectIPFromPool`): a free address from a random offset, wrapping around; the sandbox's seed
  makes it repeatable; pre-allocations and requested addresses still scan in order;
* pre-allocated addresses stay reserved after their claim is deleted (`deleteAddress` keeps
  them in the in-use set): never handed to another claim;
* BMO after inspection (`host_state_machine.go`): `spec.image` set provisions, removed or
  changed deprovisions (cleaning), then `available` again.
"""

from __future__ import annotations

import ipaddress
import random
from collections.abc import Iterator
from typing import Any

import pytest

from dhcpless import keys
from dhcpless_sandbox.apiserver.server import SandboxServer
from dhcpless_sandbox.standins.allocation import allocate
from dhcpless_sandbox.standins.bmo_provisioning import Step, next_step
from dhcpless_sandbox.standins.ipam import IPAMController
from dhcpless_sandbox.standins.ipam_spec import IP, PoolSpec
from sandbox.tests.helpers import Custom
from tests.support.waits import eventually

NS = "default"
IMAGE = {"url": "http://i/os.qcow2"}
OTHER = {"url": "http://i/other.qcow2"}


def _spec(strategy: str, **more: Any) -> PoolSpec:
    entry = {"start": "10.0.0.10", "end": "10.0.0.40"}
    return PoolSpec.model_validate({"namePrefix": "p", "pools": [entry],
                                    "allocationStrategy": strategy, **more})  # fmt: skip


def _run(strategy: str, seed: int, claims: int = 5) -> list[str]:
    spec, in_use, got = _spec(strategy), set[IP](), []
    pick = random.Random(seed).randrange
    for index in range(claims):
        address = allocate(spec, f"c{index}", None, in_use, pick).address
        in_use.add(ipaddress.ip_address(address))
        got.append(address)
    return got


def test_random_allocation_is_free_in_range_and_seeded() -> None:
    sequential, first, again, other = (_run("sequential", 1), _run("random", 1),
                                       _run("random", 1), _run("random", 2))  # fmt: skip
    assert sequential == [f"10.0.0.{n}" for n in range(10, 15)]
    assert first == again != other  # the seed, and only the seed, decides
    assert first != sequential and len(set(first)) == len(first)
    assert all(10 <= int(a.rsplit(".", 1)[1]) <= 40 for a in first)


def test_random_keeps_pre_allocations_in_order() -> None:
    spec = _spec("random", preAllocations={"c0": "10.0.0.33"})
    assert allocate(spec, "c0", None, set(), random.Random(0).randrange).address == "10.0.0.33"


@pytest.fixture
def ipam() -> Iterator[Custom]:
    with SandboxServer() as server:
        server.load_builtin_crds()
        controller = IPAMController(server.api_client())
        controller.start()
        with server.api_client() as api:
            yield Custom(api)
        controller.stop()


def _create(api: Custom, plural: str, kind: str, name: str, spec: Any) -> None:
    body = {"apiVersion": f"{keys.IPAM_GROUP}/{keys.IPAM_VERSION}", "kind": kind,
            "metadata": {"name": name, "namespace": NS}, "spec": spec}  # fmt: skip
    api.create_namespaced_custom_object(keys.IPAM_GROUP, keys.IPAM_VERSION, NS, plural, body)


def _address(api: Custom, claim: str) -> str:
    def given() -> str:
        found = api.get_namespaced_custom_object(
            keys.IPAM_GROUP, keys.IPAM_VERSION, NS, "ipclaims", claim
        )
        return str(((found.get("status") or {}).get("address") or {}).get("name", ""))

    return eventually(given, 30, f"{claim} served")


def test_a_pre_allocation_stays_reserved_after_its_claim_is_deleted(
    ipam: Custom,
) -> None:
    pool = {"namePrefix": "p", "pools": [{"start": "10.0.0.10", "end": "10.0.0.11"}],
            "prefix": 24, "preAllocations": {"host-a-p": "10.0.0.10"}}  # fmt: skip
    _create(ipam, "ippools", "IPPool", "p", pool)
    _create(ipam, "ipclaims", "IPClaim", "host-a-p", {"pool": {"name": "p", "namespace": NS}})
    assert _address(ipam, "host-a-p") == "p-10-0-0-10"
    ipam.delete_namespaced_custom_object(
        keys.IPAM_GROUP, keys.IPAM_VERSION, NS, "ipclaims", "host-a-p"
    )
    for name in ("other-1", "other-2"):
        _create(ipam, "ipclaims", "IPClaim", name, {"pool": {"name": "p", "namespace": NS}})
    assert _address(ipam, "other-1") == "p-10-0-0-11"
    assert _error(ipam, "other-2") == "Exhausted IP Pools"  # .10 stays host-a's


def _error(api: Custom, claim: str) -> str:
    def refused() -> str:
        found = api.get_namespaced_custom_object(
            keys.IPAM_GROUP, keys.IPAM_VERSION, NS, "ipclaims", claim
        )
        return str((found.get("status") or {}).get("errorMessage", ""))

    return eventually(refused, 30, f"{claim} refused")


def _host(state: str, spec_image: Any = None, status_image: Any = None) -> dict[str, Any]:
    provisioning = {"state": state, "image": status_image}
    return {"spec": {"image": spec_image}, "status": {"provisioning": provisioning}}


@pytest.mark.parametrize(
    ("host", "step"),
    [
        pytest.param(_host("available"), Step.NOTHING, id="available-no-image"),
        pytest.param(_host("available", IMAGE), Step.START_PROVISIONING, id="image-set"),
        pytest.param(_host("provisioning", IMAGE), Step.DEPLOY, id="deploy"),
        pytest.param(_host("provisioned", IMAGE, IMAGE), Step.NOTHING, id="provisioned"),
        pytest.param(_host("provisioned", None, IMAGE), Step.START_DEPROVISIONING, id="image-gone"),
        pytest.param(_host("provisioned", OTHER, IMAGE), Step.START_DEPROVISIONING,
                     id="image-changed"),
        pytest.param(_host("deprovisioning", None, IMAGE), Step.CLEAN, id="clean"),
        pytest.param(_host("inspecting", IMAGE), Step.NOTHING, id="not-yet-inspected"),
    ],
)  # fmt: skip
def test_bmo_after_inspection(host: dict[str, Any], step: Step) -> None:
    assert next_step(host) is step
