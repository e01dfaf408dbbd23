"""The host owns its addresses for its whole life; CAPM3 borrows them (issue 12, findings 2-4).

CAPM3 (`baremetal/metal3data_manager.go` `ensureM3IPClaim`) looks up `<bmh>-<pool>` whatever its
flags say and uses it only when one of its ownerReferences carries the Metal3Data's UID
(`addressFromM3Claim`). So our claim is kept while the host exists, and once CAPM3's Metal3Data
for the host appears it is added as a second owner: CAPM3 uses the very address the ramdisk
has, with no moment in which it is free, whatever the pool's `clusterName` says.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest
import yaml

from dhcpless import keys
from dhcpless_sandbox.apiserver.server import SandboxServer
from tests.scenarios import steps
from tests.support import harness, objects

CLAIM = "host-0-pool4"
M3M = "m3m-0"


@pytest.fixture(params=[pytest.param("c1", id="common-pool"), pytest.param(None, id="no-cluster")])
def world(request: pytest.FixtureRequest) -> Iterator[SandboxServer]:
    """A host released with its claim, its pool with or without `clusterName`."""
    with harness.running() as sandbox:
        sandbox.apply_crd(_crd("infrastructure.cluster.x-k8s.io_metal3datas.yaml"))
        pool = copy.deepcopy(objects.POOL4)
        if request.param:
            pool["spec"]["clusterName"] = request.param
        harness.put(sandbox, pool)
        harness.put(sandbox, objects.data_template(objects.IPV4))
        steps.register(sandbox, objects.host())
        claim = steps.fulfil(sandbox, CLAIM)
        assert steps.fire(sandbox, "ipclaim-fulfilment", claim) == 204
        assert not steps.paused(sandbox, "host-0")
        yield sandbox


def _crd(name: str) -> dict[str, Any]:
    found: dict[str, Any] = yaml.safe_load((harness.CRDS / name).read_text())
    return found


def _provisioning(world: SandboxServer, state: str = "available") -> steps.Obj:
    """BMO reports `state`; CAPM3 associates the host with Metal3Machine `M3M`."""
    api, custom = steps.custom(world)
    ref = {"apiVersion": f"{keys.CAPM3_GROUP}/{keys.CAPM3_VERSION}", "kind": "Metal3Machine",
           "name": M3M, "namespace": objects.NS}  # fmt: skip
    with api:
        custom.patch_namespaced_custom_object(
            keys.BMO_GROUP, keys.BMO_VERSION, objects.NS, "baremetalhosts", "host-0",
            {"spec": {"consumerRef": ref}},
        )  # fmt: skip
        custom.patch_namespaced_custom_object_status(
            keys.BMO_GROUP, keys.BMO_VERSION, objects.NS, "baremetalhosts", "host-0",
            {"status": {"provisioning": {"state": state}}},
        )  # fmt: skip
    return steps.fresh(world, "BareMetalHost", "host-0")


def _metal3data(world: SandboxServer) -> steps.Obj:
    """CAPM3's Metal3Data for the host: its claim is the Metal3DataClaim named after `M3M`."""
    return harness.put(
        world,
        {
            "apiVersion": f"{keys.CAPM3_GROUP}/{keys.CAPM3_VERSION}",
            "kind": "Metal3Data",
            "metadata": {"name": "tmpl-0", "namespace": objects.NS},
            "spec": {"claim": {"name": M3M, "namespace": objects.NS},
                     "template": {"name": "tmpl", "namespace": objects.NS}, "index": 0},
        },
    )  # fmt: skip


def _owner_uids(world: SandboxServer) -> list[str]:
    claim = steps.fresh(world, "IPClaim", CLAIM)
    return [o["uid"] for o in claim["metadata"].get("ownerReferences") or []]


def test_available_keeps_the_claim(world: SandboxServer) -> None:
    """Finding 2: fast-track IPA still holds the address at `available`."""
    host = _provisioning(world)
    assert steps.fire(world, "host-registration", host) == 204
    assert harness.get(world, "IPClaim", CLAIM) is not None
    assert _owner_uids(world) == [host["metadata"]["uid"]]


def test_metal3data_borrows_the_claim_on_the_hosts_event(world: SandboxServer) -> None:
    """Finding 3: with or without `clusterName`, CAPM3's Metal3Data becomes an owner."""
    data = _metal3data(world)
    host = _provisioning(world)
    assert steps.fire(world, "host-registration", host) == 204
    assert _owner_uids(world) == [host["metadata"]["uid"], data["metadata"]["uid"]]
    assert steps.fire(world, "host-registration", host) == 204  # once only
    assert _owner_uids(world) == [host["metadata"]["uid"], data["metadata"]["uid"]]


def test_resync_lends_when_the_event_was_missed(world: SandboxServer) -> None:
    """Finding 4: the periodic resync does the lifecycle step too."""
    host = _provisioning(world, "provisioning")
    data = _metal3data(world)
    assert steps.ping(world) == 204
    assert _owner_uids(world) == [host["metadata"]["uid"], data["metadata"]["uid"]]
