"""Issue 24, finding 3: a claim deleted while another host registers.

The tenant may delete IPClaims (`tenant.DELETE_CLAIMS`). It deletes the claim of a released
host; IPAM frees its address (ip-address-manager `ipam/ippool_manager.go` `deleteAddress`)
and, before the re-claim, gives it to a host that registers meanwhile. Before, the re-claim
took the lowest free address and said only that IPAM "may" have given another: two machines
on one address, the first still running it. Now the re-claim asks IPAM for the host's own
address back (`keys.REQUESTED_IP_ANNOTATION`, read from the record on the host's own Secret),
gets it when it is still free, and when it is not the host gets an `AddressNotRestored`
Warning naming both claims' address.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from kubernetes import client as k8s

from dhcpless import keys
from dhcpless.keys import EventType
from dhcpless_sandbox.apiserver.server import SandboxServer
from tests.adversary import tenant
from tests.scenarios import steps
from tests.support import harness, objects

FULFIL = "ipclaim-fulfilment"
CLAIM = "host-0-pool4"


@pytest.fixture
def world() -> Iterator[SandboxServer]:
    """host-0 released with the pool's first address."""
    with harness.running() as sandbox:
        for obj in (objects.POOL4, objects.data_template(objects.IPV4)):
            harness.put(sandbox, obj)
        steps.register(sandbox, objects.host())
        assert steps.fire(sandbox, FULFIL, steps.fulfil(sandbox, CLAIM)) == 204
        assert not steps.paused(sandbox, "host-0")
        yield sandbox


def _address_of(world: SandboxServer, claim: str) -> str:
    found = steps.fresh(world, "IPClaim", claim)
    name = found["status"]["address"]["name"]
    address: str = steps.fresh(world, "IPAddress", name)["spec"]["address"]
    return address


def _deleted_by_the_tenant(world: SandboxServer) -> tuple[steps.Obj, str]:
    """The tenant deletes host-0's claim; IPAM deletes its IPAddress. The claim as it was,
    and host-0's address."""
    before, own = steps.fresh(world, "IPClaim", CLAIM), _address_of(world, CLAIM)
    with tenant.acting(world, tenant.DELETE_CLAIMS) as attacker:
        attacker.delete_claim(CLAIM)
    name = before["status"]["address"]["name"]
    with world.api_client() as api:
        k8s.CustomObjectsApi(api).delete_namespaced_custom_object(
            keys.IPAM_GROUP, keys.IPAM_VERSION, objects.NS, "ipaddresses", name
        )
    return before, own


def test_the_reclaim_gets_the_hosts_own_address_back(world: SandboxServer) -> None:
    gone, own = _deleted_by_the_tenant(world)
    assert steps.fire(world, FULFIL, gone, EventType.RESOURCE_DELETE) == 204
    claim = steps.fresh(world, "IPClaim", CLAIM)
    assert claim["metadata"]["annotations"][keys.REQUESTED_IP_ANNOTATION] == own
    assert steps.fire(world, FULFIL, steps.fulfil(world, CLAIM)) == 204
    assert _address_of(world, CLAIM) == own
    assert "AddressNotRestored" not in {r for r, _ in steps.warnings(world, "host-0")}


def test_a_reclaim_that_cannot_have_its_address_back_says_so(world: SandboxServer) -> None:
    gone, own = _deleted_by_the_tenant(world)
    steps.register(world, objects.host("host-1"))  # registers in the window
    steps.fulfil(world, "host-1-pool4")
    assert _address_of(world, "host-1-pool4") == own  # IPAM gave the freed address away
    assert steps.fire(world, FULFIL, gone, EventType.RESOURCE_DELETE) == 204
    answered = steps.fulfil(world, CLAIM)
    assert answered["status"].get("errorMessage") == "Requested IP not available"
    assert steps.fire(world, FULFIL, answered) == 204
    said = [m for r, m in steps.warnings(world, "host-0") if r == "AddressNotRestored"]
    assert len(said) == 1 and own in said[0] and CLAIM in said[0], said
