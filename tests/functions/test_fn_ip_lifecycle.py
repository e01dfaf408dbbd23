"""IP lifecycle decisions (chain.lifecycle) and host-registration's cheap path for other hosts.

Pure tables: which hosts are past pre-provisioning (from the event's object alone), what
happens to a claim per pool kind and opt-in, and how the opt-ins are read from the
environment. Against the sandbox: an available host that is not ours costs no API request.
"""

from __future__ import annotations

from typing import Any

import pytest

from dhcpless import keys
from dhcpless.chain.actions import DeleteIPClaim, RecordEvent, RecordPreAllocation
from dhcpless.chain.lifecycle import (
    LifecycleSettings,
    LifecycleState,
    decide,
    pre_provisioning_over,
)
from dhcpless.keys import EventType
from dhcpless.kube.recorder import Reason
from dhcpless.models import BareMetalHost, IPAddress, IPClaim, IPPool
from tests.e2e import harness, objects

RECORD = LifecycleSettings(record_preallocation=True)
DECOUPLED = LifecycleSettings(release_decoupled=True)
DEFAULT = LifecycleSettings()
STAMP = {keys.RELEASED_AT_ANNOTATION: "2026-08-24T00:00:00Z"}


def _host(state: str, annotations: dict[str, str], pause: str | None = None) -> BareMetalHost:
    raw = objects.host("h", pause=pause)
    raw["metadata"]["annotations"] |= annotations
    raw["status"] = {"provisioning": {"state": state}}
    return BareMetalHost.from_k8s(raw)


@pytest.mark.parametrize(
    ("host", "over"),
    [
        pytest.param(_host("available", STAMP), True, id="released-and-available"),
        pytest.param(_host("available", {}), False, id="never-released-by-us"),
        pytest.param(_host("inspecting", STAMP), False, id="still-inspecting"),
        pytest.param(_host("available", STAMP, keys.CAPM3_PAUSE), False, id="paused-again"),
    ],
)
def test_pre_provisioning_over(host: BareMetalHost, over: bool) -> None:
    assert pre_provisioning_over(host) is over


def _pool(cluster: str | None, pre: dict[str, str] | None = None) -> IPPool:
    raw: dict[str, Any] = {**objects.POOL4, "metadata": {**objects.POOL4["metadata"]}}
    raw["metadata"]["resourceVersion"] = "7"
    raw["spec"] = {**raw["spec"], "preAllocations": pre or {}}
    if cluster:
        raw["spec"]["clusterName"] = cluster
    return IPPool.from_k8s(raw)


CLAIM = IPClaim.from_k8s(
    {
        "metadata": {"name": "h-pool4", "namespace": objects.NS},
        "spec": {"pool": {"name": "pool4"}},
        "status": {"address": {"name": "pool4-192-168-10-10"}},
    }
)
ADDRESS = IPAddress.from_k8s(
    {"metadata": {"name": "pool4-192-168-10-10"}, "spec": {"address": "192.168.10.10"}}
)


def _state(pool: IPPool | None, address: IPAddress | None = None) -> LifecycleState:
    pools = {} if pool is None else {"pool4": pool}
    found = {} if address is None else {"pool4": address}
    return LifecycleState(_host("available", STAMP), {"pool4": CLAIM}, pools, found)


@pytest.mark.parametrize(
    ("state", "settings", "expected"),
    [
        pytest.param(_state(_pool("c1")), DEFAULT, ["delete"], id="common-pool-released"),
        pytest.param(
            _state(_pool("c1"), ADDRESS), RECORD, ["record", "delete"], id="common-pool-recorded"
        ),
        pytest.param(_state(_pool(None)), DEFAULT, [], id="decoupled-pool-kept"),
        pytest.param(_state(_pool(None)), DECOUPLED, ["delete"], id="decoupled-opted-in"),
        pytest.param(_state(None), DEFAULT, ["delete"], id="pool-gone-released"),
    ],
)
def test_decide(state: LifecycleState, settings: LifecycleSettings, expected: list[str]) -> None:
    actions = decide(state, settings)
    kinds = [
        "record" if isinstance(a, RecordPreAllocation) else "delete"
        for a in actions
        if isinstance(a, RecordPreAllocation | DeleteIPClaim)
    ]
    assert kinds == expected
    events = [a.reason for a in actions if isinstance(a, RecordEvent)]
    assert events.count(Reason.CLAIM_RELEASED) == expected.count("delete")
    records = [a for a in actions if isinstance(a, RecordPreAllocation)]
    assert [(r.claim, r.address, r.resource_version) for r in records] == [
        ("h-pool4", "192.168.10.10", "7")
    ] * expected.count("record")


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        pytest.param({}, DEFAULT, id="nothing-set"),
        pytest.param({keys.RECORD_PREALLOCATION_ENV: "true"}, RECORD, id="record"),
        pytest.param({keys.RELEASE_DECOUPLED_ENV: " Yes "}, DECOUPLED, id="release-decoupled"),
        pytest.param({keys.RECORD_PREALLOCATION_ENV: "no"}, DEFAULT, id="explicit-no"),
    ],
)
def test_settings_from_environment(env: dict[str, str], expected: LifecycleSettings) -> None:
    assert LifecycleSettings.from_environment(env) == expected


def test_available_host_not_ours_costs_no_request() -> None:
    raw = objects.host("foreign", pause=None)
    raw["metadata"]["uid"] = "u-1"
    raw["status"] = {"provisioning": {"state": "available"}}
    with harness.running() as sandbox:
        app = harness.client(sandbox, "host-registration")
        assert harness.deliver(app, EventType.RESOURCE_UPDATE, raw) == (204, "")
        assert harness.audit_of(sandbox, "host-registration") == []
