"""The BMO stand-in reconciles the host updates BMO does, not its own status writes (issue 24,
item 9).

baremetal-operator's `updateEventHandler` (`internal/controller/metal3.io/
baremetalhost_controller.go`) lets an update through when the generation, the finalizers or the
annotations changed; a status write changes none of them. The table holds the pure predicate to
that; the world run writes a host's status and counts the stand-in's reconciles. A transition
the stand-in completes requeues, as BMO's `actionComplete` does (`action_result.go`), instead of
waiting for its own status write to come back.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from dhcpless import keys
from dhcpless.keys import ProvisioningState
from dhcpless_sandbox.controllers.reflector import WatchEvent
from dhcpless_sandbox.standins import bmo
from dhcpless_sandbox.standins.bmo_boots import HostKey
from dhcpless_sandbox.standins.bmo_predicate import Mark, worth_reconciling
from sandbox.tests.helpers import Custom, host
from tests.scenarios.world_run import NS, objects, scenario_world
from tests.support.waits import eventually, stays

JSON = dict[str, Any]
BASE: JSON = {
    "metadata": {"name": "h", "generation": 1, "finalizers": ["f"],
                 "annotations": {keys.PAUSED_ANNOTATION: keys.PREPROVISIONING_PAUSE}},
    "spec": {"online": True},
    "status": {"provisioning": {"state": "registering"}},
}  # fmt: skip


def _with(**changes: Any) -> JSON:
    obj = copy.deepcopy(BASE)
    for path, value in changes.items():
        where, field = path.split("__")
        obj[where][field] = value
    return obj


CASES = [
    pytest.param(_with(status__provisioning={"state": "inspecting"}), WatchEvent.MODIFIED, False,
                 id="status-write"),
    pytest.param(_with(metadata__labels={"a": "b"}), WatchEvent.MODIFIED, False,
                 id="labels-only"),
    pytest.param(_with(metadata__generation=2), WatchEvent.MODIFIED, True, id="spec-change"),
    pytest.param(_with(metadata__annotations={}), WatchEvent.MODIFIED, True, id="pause-removed"),
    pytest.param(_with(metadata__finalizers=[]), WatchEvent.MODIFIED, True,
                 id="finalizer-removed"),
    pytest.param(copy.deepcopy(BASE), WatchEvent.ADDED, True, id="relist-added"),
]  # fmt: skip


@pytest.mark.parametrize(("new", "kind", "expected"), CASES)
def test_which_updates_are_reconciled(new: JSON, kind: WatchEvent, expected: bool) -> None:
    last: dict[str, Mark] = {}
    assert worth_reconciling(last, "h", BASE, WatchEvent.ADDED)  # first sight always counts
    assert worth_reconciling(last, "h", new, kind) is expected


def test_a_host_never_seen_is_reconciled_on_any_update() -> None:
    assert worth_reconciling({}, "h", BASE, WatchEvent.MODIFIED)


@pytest.mark.slow
def test_a_status_write_brings_no_reconcile_and_a_spec_change_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An available host's status written (as BMO's own writes are, at every transition):
    the stand-in does not look again; its spec changed: it does (`online: false` powers it
    off). Before, every status write brought a reconcile, each a GET of the host."""
    counted, real = [0], bmo.BMOController.reconcile

    def counting(self: bmo.BMOController, key: HostKey) -> float | None:
        counted[0] += 1
        return real(self, key)

    monkeypatch.setattr(bmo.BMOController, "reconcile", counting)
    with scenario_world(False) as run:
        run.create(objects(1))
        run.reach(["host-000"], ProvisioningState.AVAILABLE)
        stays(lambda: run.host("host-000"), 0.5, "settled")  # the last requeues run
        before = counted[0]
        status = {"status": {"lastUpdated": "2026-01-01T00:00:00Z", "errorCount": 0}}
        run.hosts.patch_status("baremetalhosts", NS, "host-000", status["status"])
        stays(lambda: counted[0] == before, 1.0, "no reconcile for a status write")
        run.hosts.patch("baremetalhosts", NS, "host-000", {"spec": {"online": False}})
        eventually(lambda: counted[0] > before, 30, "a reconcile for the spec change")
        eventually(lambda: (run.host("host-000") or {})["status"].get("poweredOn") is False, 30,
                   "host-000 powered off")  # fmt: skip


def test_marking_a_host_deleting_bumps_its_generation_once(api_client: Any) -> None:
    """`markAsDeleting` (k8s.io/apiserver `registry/generic/registry/store.go`): the delete of
    an object a finalizer holds is an update BMO's filter lets through."""
    co, plural = Custom(api_client), (keys.BMO_GROUP, keys.BMO_VERSION, "default", "baremetalhosts")
    body = host("h1")
    body["metadata"]["finalizers"] = ["f"]
    co.create_namespaced_custom_object(*plural, body)
    for _ in range(2):  # the second delete finds it terminating: nothing changes
        co.delete_namespaced_custom_object(*plural, "h1")
        found = co.get_namespaced_custom_object(*plural, "h1")
        assert found["metadata"]["deletionTimestamp"] and found["metadata"]["generation"] == 2
