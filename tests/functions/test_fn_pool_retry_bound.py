"""ipclaim-fulfilment retries at most as many failed claims as a pool has free addresses
(issue 24, finding 8), posted real IPPool CloudEvents, sandbox API behind it.

A two-address pool serves two of five hosts; IPAM fails the other three claims. One address
is freed (a served host's claim deleted, IPAM's `status.indexes` without it): the pool's event
deletes one failed claim, the one waiting longest, not all three (IPAM would fail two of them
again: 316 deletes for 10 freed addresses). A pool whose ranges cannot be read bounds nothing.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator

import pytest
from kubernetes import client as k8s

from dhcpless import keys
from dhcpless.chain.predicates import pool_room
from dhcpless.keys import EventType
from dhcpless.models import IPPool
from dhcpless_sandbox.apiserver.server import SandboxServer
from tests.scenarios import steps
from tests.support import harness, objects, scenario

FN = "ipclaim-fulfilment"
HOSTS = [f"host-{i}" for i in range(5)]


def _template() -> objects.Obj:
    network = copy.deepcopy(objects.IPV4)
    network["networks"]["ipv4"][0]["ipAddressFromIPPool"] = "tiny"
    network["networks"]["ipv4"][0]["routes"][0]["gateway"] = {"fromIPPool": "tiny"}
    network["services"] = {"dnsFromIPPool": "tiny"}
    return objects.data_template(network)


@pytest.fixture
def world() -> Iterator[SandboxServer]:
    with harness.running() as sandbox:
        tiny = objects.pool("tiny", "10.0.0.10", "10.0.0.11", 24, "10.0.0.1", [])
        for obj in (tiny, _template()):
            harness.put(sandbox, obj)
        for name in HOSTS:
            steps.register(sandbox, objects.host(name))
        with sandbox.api_client() as api:
            for name in HOSTS:  # in registration order: the first two get the addresses
                scenario.Ipam(api).fulfil(steps.fresh(sandbox, "IPClaim", f"{name}-tiny"))
        yield sandbox


def _free_one(world: SandboxServer) -> objects.Obj:
    """host-0's claim and address go; IPAM rewrites the pool's indexes: one address free."""
    claim = steps.fresh(world, "IPClaim", "host-0-tiny")
    address = claim["status"]["address"]["name"]
    kept = steps.fresh(world, "IPClaim", "host-1-tiny")["status"]["address"]["name"]
    held = steps.fresh(world, "IPAddress", kept)["spec"]["address"]
    with world.api_client() as api:
        custom = k8s.CustomObjectsApi(api)
        for plural, name in (("ipclaims", "host-0-tiny"), ("ipaddresses", address)):
            custom.delete_namespaced_custom_object(
                keys.IPAM_GROUP, keys.IPAM_VERSION, objects.NS, plural, name
            )
        custom.patch_namespaced_custom_object_status(
            keys.IPAM_GROUP, keys.IPAM_VERSION, objects.NS, "ippools", "tiny",
            {"status": {"indexes": {"host-1-tiny": held}}},
        )  # fmt: skip
    return steps.fresh(world, "IPPool", "tiny")


def test_one_freed_address_retries_one_failed_claim_the_oldest(world: SandboxServer) -> None:
    failed = [n for n in HOSTS if steps.fresh(world, "IPClaim", f"{n}-tiny")["status"].get(
        "errorMessage")]  # fmt: skip
    assert failed == ["host-2", "host-3", "host-4"]
    pool = _free_one(world)
    assert pool_room.free_addresses(IPPool.from_k8s(pool)) == 1
    world.reset_audit()
    assert steps.fire(world, FN, pool, EventType.RESOURCE_UPDATE) == 204
    deleted = [w.name for w in harness.writes(world, FN) if w.verb == "delete"]
    assert deleted == ["host-2-tiny"]
    assert harness.get(world, "IPClaim", "host-3-tiny") is not None


@pytest.mark.parametrize(
    ("entries", "indexes", "expected"),
    [
        pytest.param([{"start": "10.0.0.10", "end": "10.0.0.11"}], {"a": "10.0.0.10"}, 1,
                     id="one-of-two-held"),
        pytest.param([{"start": "10.0.0.10", "end": "10.0.0.11"}], {"a": "10.0.0.10",
                     "b": "10.0.0.11"}, 0, id="full"),
        pytest.param([{"subnet": "10.0.0.0/30"}], {}, 3, id="subnet-only-after-the-cidr-address"),
        pytest.param([{"start": "10.0.0.x"}], {}, None, id="unreadable-bounds-nothing"),
    ],
)  # fmt: skip
def test_free_addresses(
    entries: list[objects.Obj], indexes: dict[str, str], expected: int | None
) -> None:
    pool = objects.pool("p", "10.0.0.10", "10.0.0.11", 24, "10.0.0.1", [])
    pool["spec"]["pools"] = entries
    pool["status"] = {"indexes": indexes}
    assert pool_room.free_addresses(IPPool.from_k8s(pool)) == expected
