"""CAPM3's claim names against ours (predicates.collision): hosts `worker-<n>`, template `worker`.

Upstream (cluster-api-provider-metal3): `metal3datatemplate_manager.go` `createData` names a
Metal3Data `<template>-<index>`; `metal3data_manager.go` `ensureM3IPClaim` GETs
`<metal3data>-<pool>` before `<bmh>-<pool>`; `releaseAddressFromM3Pool` deletes
`<metal3data>-<pool>` by name. Tables: which names collide, whose claim it is, what the chain
lends and which Warnings it writes on which host.
"""

from __future__ import annotations

import pytest

from dhcpless import keys
from dhcpless.chain.actions import LendClaim, RecordEvent
from dhcpless.chain.decide.lifecycle import decide
from dhcpless.chain.facts import HostFacts
from dhcpless.chain.predicates import collision
from dhcpless.chain.predicates.collision import Clash
from dhcpless.models import BareMetalHost, IPClaim
from dhcpless.models.capm3 import Metal3Data
from dhcpless.reasons import Reason, Severity
from tests.support import objects

POOL = "pool4"
STAMP = {keys.RELEASED_AT_ANNOTATION: "2026-08-24T00:00:00Z"}


def _host(name: str) -> BareMetalHost:
    raw = objects.host(name, pause=None)
    raw["metadata"]["annotations"] |= STAMP
    raw["metadata"]["uid"] = f"uid-{name}"
    raw["spec"]["consumerRef"] = {
        "apiVersion": "infrastructure.cluster.x-k8s.io/v1beta2", "kind": "Metal3Machine",
        "name": f"{name}-m3m", "namespace": objects.NS,
    }  # fmt: skip
    return BareMetalHost.from_k8s(raw)


def _claim(host: str, *, ours: bool = True, data_uid: str = "") -> IPClaim:
    labels = (
        {keys.HOST_LABEL: host, keys.HOST_NAMESPACE_LABEL: objects.NS,
         keys.MANAGED_BY_LABEL: keys.MANAGED_BY_VALUE} if ours else {}
    )  # fmt: skip
    owners = [{"apiVersion": "metal3.io/v1alpha1", "kind": "BareMetalHost", "name": host,
               "uid": f"uid-{host}"}]  # fmt: skip
    if data_uid:
        owners.append({"apiVersion": "x/v1", "kind": "Metal3Data", "name": "d", "uid": data_uid})
    return IPClaim.from_k8s(
        {"metadata": {"name": f"{host}-{POOL}", "namespace": objects.NS, "labels": labels,
                      "resourceVersion": "7", "ownerReferences": owners},
         "spec": {"pool": {"name": POOL}}}
    )  # fmt: skip


def _data(name: str, template: str = "worker") -> Metal3Data:
    return Metal3Data.from_k8s(
        {"metadata": {"name": name, "uid": f"uid-{name}-data"},
         "spec": {"claim": {"name": "m3m"}, "template": {"name": template}}}
    )  # fmt: skip


@pytest.mark.parametrize(
    ("host", "data", "named", "expected"),
    [
        pytest.param("host-0", "preprov-0", {}, [], id="distinct-names"),
        pytest.param("worker-0", "worker-0", {}, [(Clash.OWN, "worker-0")], id="own-name"),
        pytest.param(
            "worker-1", "worker-0", {"worker-0-pool4": _claim("worker-0")},
            [(Clash.OTHER, "worker-0")], id="another-hosts-claim",
        ),
        pytest.param(
            "worker-1", "worker-0", {"worker-0-pool4": _claim("worker-0", ours=False)}, [],
            id="a-claim-not-ours-is-capm3s-business",
        ),
        pytest.param("worker-1", "worker-0", {}, [], id="no-host-worker-0"),
    ],
)  # fmt: skip
def test_find(
    host: str, data: str, named: dict[str, IPClaim], expected: list[tuple[Clash, str]]
) -> None:
    own = {POOL: _claim(host)}
    found = collision.find(host, [_data(data)], own, named)
    assert [(c.clash, c.holder) for c in found] == expected
    assert all(c.claim == f"{data}-{POOL}" and c.template == "worker" for c in found)


@pytest.mark.parametrize(
    ("host", "data", "expected"),
    [
        pytest.param("worker-0", "worker-0", (), id="own-claim-is-listed-already"),
        pytest.param("worker-1", "worker-0", ("worker-0-pool4",), id="one-get-per-pool"),
    ],
)
def test_wanted_names(host: str, data: str, expected: tuple[str, ...]) -> None:
    assert collision.wanted_names(host, [_data(data)], [POOL]) == expected


@pytest.mark.parametrize(
    ("host", "data", "named", "lent", "events"),
    [
        pytest.param("host-0", "preprov-0", {}, True,
                     [("host-0", Reason.CLAIM_LENT)], id="no-collision"),
        pytest.param("worker-0", "worker-0", {}, True,
                     [("worker-0", Reason.CLAIM_LENT), ("worker-0", Reason.NAME_COLLISION)],
                     id="own-name-lent-and-warned"),
        pytest.param("worker-1", "worker-0", {"worker-0-pool4": _claim("worker-0")}, False,
                     [("worker-1", Reason.LENDING_REFUSED), ("worker-0", Reason.NAME_COLLISION)],
                     id="other-hosts-claim-refused-both-warned"),
    ],
)  # fmt: skip
def test_decide_lends_or_refuses(
    host: str,
    data: str,
    named: dict[str, IPClaim],
    lent: bool,
    events: list[tuple[str, Reason]],
) -> None:
    facts = HostFacts(
        _host(host), claims={POOL: _claim(host)}, data=(_data(data),), capm3_named=named
    )
    actions = decide(facts)
    assert any(isinstance(a, LendClaim) for a in actions) is lent
    recorded = [(a.host.name, a.reason) for a in actions if isinstance(a, RecordEvent)]
    assert recorded == events
    warnings = [a for a in actions if isinstance(a, RecordEvent) and a.reason.severity is
                Severity.WARNING]  # fmt: skip
    assert all("worker" in a.message and "Naming hosts and templates" in a.message
               for a in warnings)  # fmt: skip
    others = [a.host for a in actions if isinstance(a, RecordEvent) and a.host.name != host]
    assert all(ref.uid == f"uid-{ref.name}" for ref in others)  # the holder's own UID


def test_a_lent_own_name_warns_once() -> None:
    """Once lent, nothing is pending: no Warning on every later event of the host."""
    claim = _claim("worker-0", data_uid="uid-worker-0-data")
    facts = HostFacts(_host("worker-0"), claims={POOL: claim}, data=(_data("worker-0"),))
    assert decide(facts) == ()
