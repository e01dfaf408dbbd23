"""IP lifecycle decisions (chain.decide.lifecycle): claims are kept for the host's life and lent to
CAPM3's Metal3Data, and host-registration's cheap path for other hosts.

Pure tables: which hosts are lendable (from the event's object alone) and what is lent to
which Metal3Data. Against the sandbox: an available host that is not ours costs no request.
"""

from __future__ import annotations

from typing import Any

import pytest

from dhcpless import keys
from dhcpless.chain.actions import LendClaim, RecordEvent
from dhcpless.chain.decide.lifecycle import decide
from dhcpless.chain.facts import HostFacts
from dhcpless.chain.predicates.on_host import lendable
from dhcpless.keys import EventType
from dhcpless.models import BareMetalHost, IPClaim
from dhcpless.models.capm3 import Metal3Data
from dhcpless.reasons import Reason
from tests.support import harness, objects

STAMP = {keys.RELEASED_AT_ANNOTATION: "2026-08-24T00:00:00Z"}
M3M = {"apiVersion": "infrastructure.cluster.x-k8s.io/v1beta2", "kind": "Metal3Machine",
       "name": "m3m-0", "namespace": objects.NS}  # fmt: skip
HOST_OWNER = {"apiVersion": "metal3.io/v1alpha1", "kind": "BareMetalHost", "name": "h", "uid": "h1"}


def _host(
    annotations: dict[str, str], pause: str | None = None, consumer: dict[str, Any] | None = None
) -> BareMetalHost:
    raw = objects.host("h", pause=pause)
    raw["metadata"]["annotations"] |= annotations
    raw["metadata"]["uid"] = "h1"
    if consumer is not None:
        raw["spec"]["consumerRef"] = consumer
    return BareMetalHost.from_k8s(raw)


@pytest.mark.parametrize(
    ("host", "expected"),
    [
        pytest.param(_host(STAMP, consumer=M3M), True, id="released-and-associated"),
        pytest.param(_host(STAMP), False, id="released-not-associated"),
        pytest.param(_host({}, consumer=M3M), False, id="never-released-by-us"),
        pytest.param(_host(STAMP, keys.PREPROVISIONING_PAUSE, M3M), False, id="paused-for-us"),
        pytest.param(_host(STAMP, consumer={**M3M, "kind": "Other"}), False, id="other-consumer"),
    ],
)
def test_lendable(host: BareMetalHost, expected: bool) -> None:
    assert lendable(host) is expected


def _claim(*owners: dict[str, str]) -> IPClaim:
    return IPClaim.from_k8s(
        {
            "metadata": {"name": "h-pool4", "namespace": objects.NS, "resourceVersion": "7",
                         "ownerReferences": list(owners)},
            "spec": {"pool": {"name": "pool4"}},
        }
    )  # fmt: skip


def _data(uid: str) -> Metal3Data:
    return Metal3Data.from_k8s(
        {"metadata": {"name": f"d-{uid}", "uid": uid}, "spec": {"claim": {"name": "m3m-0"}}}
    )


DATA_OWNER = {"apiVersion": "x/v1", "kind": "Metal3Data", "name": "d-d1", "uid": "d1"}


@pytest.mark.parametrize(
    ("claim", "data", "lent_to"),
    [
        pytest.param(_claim(HOST_OWNER), (), [], id="no-metal3data-yet"),
        pytest.param(_claim(HOST_OWNER), (_data("d1"),), ["d1"], id="lent"),
        pytest.param(_claim(HOST_OWNER, DATA_OWNER), (_data("d1"),), [], id="lent-already"),
        pytest.param(_claim(HOST_OWNER, DATA_OWNER), (_data("d2"),), ["d2"], id="new-metal3data"),
    ],
)
def test_decide_lends_once_per_metal3data(
    claim: IPClaim, data: tuple[Metal3Data, ...], lent_to: list[str]
) -> None:
    host = _host(STAMP, consumer=M3M)
    actions = decide(HostFacts(host, claims={"pool4": claim}, data=data))
    lends = [a for a in actions if isinstance(a, LendClaim)]
    assert [a.data_uid for a in lends] == lent_to
    assert all(a.owners == claim.metadata.owner_references for a in lends)
    assert all(a.resource_version == "7" for a in lends)
    reasons = [a.reason for a in actions if isinstance(a, RecordEvent)]
    assert reasons == [Reason.CLAIM_LENT] * len(lent_to)


def test_available_host_not_ours_costs_no_request() -> None:
    raw = objects.host("foreign", pause=None)
    raw["metadata"]["uid"] = "u-1"
    raw["status"] = {"provisioning": {"state": "available"}}
    with harness.running() as sandbox:
        app = harness.client(sandbox, "host-registration")
        assert harness.deliver(app, EventType.RESOURCE_UPDATE, raw) == (204, "")
        assert harness.audit_of(sandbox, "host-registration") == []
