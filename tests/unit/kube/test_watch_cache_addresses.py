"""ipclaim-fulfilment reads IPAddresses from its watch cache, only the copy IPAM made for the
claim at hand (issue 15: one GET per host less on the handler's path).

A copy owned by another UID (a name reused after a delete), or not cached yet, is read
directly; the other functions, whose Roles do not watch IPAddresses, read directly always.
The cache holds the addresses it saw added or changed since it started (`kube.cache.kept`): one
made before is read directly.
"""

from __future__ import annotations

from typing import Any

import pytest

from dhcpless.chain.gather import lookup
from dhcpless.keys import FunctionName
from dhcpless.kube import Kube
from dhcpless.kube.cache.watchcache import WatchCache, kinds_for
from dhcpless.models import IPAddress, IPClaim
from dhcpless_sandbox.apiserver.server import SandboxServer
from tests.support.waits import eventually, seconds
from tests.unit.kube.cache_support import NS, create, requests

CLAIM_UID = "uid-of-the-claim"


def _claim(uid: str | None = CLAIM_UID) -> IPClaim:
    meta: dict[str, Any] = {"name": "h1-pool4", "namespace": NS, **({"uid": uid} if uid else {})}
    status = {"address": {"name": "pool4-192-168-10-10", "namespace": NS}}
    return IPClaim.from_k8s(
        {"metadata": meta, "spec": {"pool": {"name": "pool4"}}, "status": status}
    )


def _address(owner_uid: str, claim_name: str = "h1-pool4") -> dict[str, Any]:
    owner = {"apiVersion": "ipam.metal3.io/v1alpha1", "kind": "IPClaim", "name": claim_name}
    return {
        "apiVersion": "ipam.metal3.io/v1alpha1",
        "kind": "IPAddress",
        "metadata": {
            "name": "pool4-192-168-10-10",
            "namespace": NS,
            "ownerReferences": [{**owner, "uid": owner_uid}],
        },
        "spec": {
            "address": "192.168.10.10",
            "prefix": 24,
            "gateway": "192.168.10.1",
            "pool": {"name": "pool4", "namespace": NS},
            "claim": {"name": claim_name, "namespace": NS},
        },
    }


@pytest.mark.parametrize(
    ("address", "claim", "mine"),
    [
        pytest.param(_address(CLAIM_UID), _claim(), True, id="owned-by-this-claim"),
        pytest.param(_address("another-uid"), _claim(), False, id="name-reused-other-uid"),
        pytest.param(_address(CLAIM_UID, "h2-pool4"), _claim(), False, id="another-claim-name"),
        pytest.param(_address(""), _claim(None), False, id="claim-without-uid"),
    ],
)
def test_a_copy_stands_for_a_read_only_when_made_for_the_claim(
    address: dict[str, Any], claim: IPClaim, mine: bool
) -> None:
    assert lookup.made_for(IPAddress.from_k8s(address), claim) is mine


@pytest.mark.parametrize(
    ("function", "owner", "gets"),
    [
        pytest.param(FunctionName.IPCLAIM_FULFILMENT, CLAIM_UID, 0, id="fulfilment-cached"),
        pytest.param(FunctionName.IPCLAIM_FULFILMENT, "another-uid", 2, id="not-its-claim-read"),
        pytest.param(FunctionName.HOST_REGISTRATION, CLAIM_UID, 2, id="registration-reads"),
    ],
)
def test_which_reads_the_cache_answers(
    world: SandboxServer, function: FunctionName, owner: str, gets: int
) -> None:
    api = world.api_client(token="cached-token")
    world.add_token("cached-token", "cached")
    cache = WatchCache(api, first_sync=seconds(5), kinds=kinds_for(function.value))
    try:
        kube = Kube(api, cache=cache)
        assert kube.cached_address(NS, "pool4-192-168-10-10") is None  # starts the informer
        create(world, _address(owner))
        if gets == 0:
            assert eventually(lambda: kube.cached_address(NS, "pool4-192-168-10-10"), 10)
        before = requests(world, "get")
        found = [lookup.addresses(kube, {"pool4": _claim()}) for _ in range(2)]
        assert requests(world, "get") - before == gets
    finally:
        cache.stop()
    assert [f["pool4"].spec.address for f in found] == ["192.168.10.10"] * 2
    assert found[0]["pool4"].metadata.owner_references[0].uid == owner


def test_an_address_made_before_the_cache_started_is_read(world: SandboxServer) -> None:
    create(world, _address(CLAIM_UID))
    api = world.api_client(token="cached-token")
    world.add_token("cached-token", "cached")
    cache = WatchCache(
        api, first_sync=seconds(5), kinds=kinds_for(FunctionName.IPCLAIM_FULFILMENT.value)
    )
    try:
        kube = Kube(api, cache=cache)
        before = requests(world, "get")
        found = lookup.addresses(kube, {"pool4": _claim()})
        assert requests(world, "get") - before == 1
    finally:
        cache.stop()
    assert found["pool4"].spec.address == "192.168.10.10"
