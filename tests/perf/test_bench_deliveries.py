"""What the bench counts as the chain's work, and what it counts apart (`bench_deliveries`,
`bench_count`): IPPool events and the LIST each costs, resync ticks and resync's requests,
redeliveries. A loaded run once counted one IPPool event more than usual and failed the
per-host bounds (issue 17); these are now totals of their own, and the per-host counts are
the chain's alone, but for resync's writes, which count with the chain's (a tick in a long batch
releases hosts still in flight). Unit-level: no world, no processes."""

from __future__ import annotations

from collections import Counter

import pytest
from cloudevents.core.v1.event import CloudEvent

from dhcpless.chain.gather import ipam
from dhcpless.keys import FunctionName
from dhcpless_sandbox.apiserver.audit import AuditRecord
from dhcpless_sandbox.bench.count import POOL_SCAN, window
from dhcpless_sandbox.bench.deliveries import Cause, cause
from dhcpless_sandbox.bench.report import KEYS, OUTSIDE_KEYS
from dhcpless_sandbox.runtime.wiring import PING_SOURCE, PING_TYPE

FULFIL, REGISTER = FunctionName.IPCLAIM_FULFILMENT.value, FunctionName.HOST_REGISTRATION.value
RESYNC = FunctionName.RESYNC.value


def _event(kind: str | None, type_: str = "dev.knative.apiserver.resource.update") -> CloudEvent:
    attributes = {"type": type_, "source": PING_SOURCE, "id": "1"}
    return CloudEvent({**attributes, **({"kind": kind} if kind else {})}, None)


@pytest.mark.parametrize(
    ("event", "seen", "expected"),
    [
        pytest.param(_event("BareMetalHost"), False, Cause.CHAIN, id="host"),
        pytest.param(_event("IPClaim"), False, Cause.CHAIN, id="claim"),
        pytest.param(_event("IPPool"), False, Cause.POOL, id="pool"),
        pytest.param(_event(None, PING_TYPE), False, Cause.TICK, id="tick"),
        pytest.param(_event("IPClaim"), True, Cause.REDELIVERY, id="claim-again"),
        pytest.param(_event("IPPool"), True, Cause.REDELIVERY, id="pool-again"),
    ],
)
def test_each_attempt_has_one_cause(event: CloudEvent, seen: bool, expected: Cause) -> None:
    assert cause(event, seen) is expected


def _record(identity: str, verb: str, resource: str, selector: str = "") -> AuditRecord:
    return AuditRecord(identity, verb, "ipam.metal3.io", resource, "", "bench", "", selector)


def test_the_pool_scan_is_the_list_an_ippool_event_costs() -> None:
    """The bench tells the pool events' LIST by its selector: the one `failed_in_pool` uses."""
    assert POOL_SCAN == (FULFIL, "list", "ipclaims", ipam.OURS)


def test_window_keeps_pool_scans_and_resync_apart_from_the_chain() -> None:
    host_selector = "dhcpless.metal3.io/host=x"
    records = [
        _record(FULFIL, "list", "ipclaims", host_selector),  # the chain's: one host's claims
        _record(FULFIL, "list", "ipclaims", ipam.OURS),  # an IPPool event's scan
        _record(FULFIL, "list", "ipclaims", ipam.OURS),
        _record(RESYNC, "list", "baremetalhosts"),
        _record(RESYNC, "create", "ipclaims"),
        _record(REGISTER, "create", "ipclaims"),
        _record("ipam", "update", "ippools"),  # not a function: never counted
    ]
    deliveries = Counter({Cause.CHAIN: 5, Cause.POOL: 2, Cause.TICK: 1, Cause.REDELIVERY: 3})
    counted = window(records, deliveries)
    assert (counted.reads, counted.writes, counted.invocations) == (1, 2, 5)  # resync's write too
    assert counted.outside == {
        "pool_events": 2,
        "pool_event_reads": 2,
        "resync_ticks": 1,
        "resync_requests": 2,
        "redeliveries": 3,
        "resync_writes": 1,
    }


def test_every_outside_count_is_a_report_key() -> None:
    outside = window([], Counter()).outside
    assert sorted(f"{name}_in_batch" for name in outside) == sorted(OUTSIDE_KEYS)
    assert set(OUTSIDE_KEYS) <= set(KEYS)
