"""What the functions asked of the API in one window of the run, from the sandbox's audit.

Definitions (the README's Performance section repeats them):
* a **write** is a create, update, patch, delete or deletecollection by a function's identity
  (its own bearer token) on anything but core/v1 Events; Events are counted apart;
* a **read** is a get or list by a function's identity (watches are the sources', not theirs);
* an **invocation** is one event a host's chain caused, delivered to one function once.
IPAM, BMO, the sources and the bench itself use other identities and are never counted. Work
no host's chain causes, in numbers that vary with timing, is counted apart (`bench_deliveries`):
IPPool events and the one LIST each costs, resync ticks and resync's requests, redeliveries
(their requests cannot be told apart from the first attempt's, so they stay in the counts; a
run without any is the one whose counts are the chain's alone).

Writes are the exception (issue 28): resync's writes (Events excluded) count with the chain's.
A tick that falls in a long batch (5,000 hosts outlast the five-minute schedule) releases the
hosts still in flight, making the writes their chains would have made; counted apart, the
batch's writes fell below the floor of K + 2 a host. Counted together they show what each host
cost whoever wrote it, and a tick that duplicated the chain's work would show above the floor.
`resync_writes_in_batch` says how many of them were resync's.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from dhcpless.keys import FunctionName
from dhcpless_sandbox.apiserver.audit import AuditRecord
from dhcpless_sandbox.bench.deliveries import Cause
from dhcpless_sandbox.runtime.wiring import OURS

WRITES = frozenset({"create", "update", "patch", "delete", "deletecollection"})
READS = frozenset({"get", "list"})
FUNCTIONS = frozenset(f.value for f in FunctionName)
RESYNC = FunctionName.RESYNC.value
POOL_SCAN = (FunctionName.IPCLAIM_FULFILMENT.value, "list", "ipclaims", OURS)
"""The LIST an IPPool event costs (`chain.gather.ipam.failed_in_pool`: all our claims)."""


@dataclass(frozen=True)
class Window:
    """Counts of one phase (batch, lifecycle, idle), over every function."""

    writes: int
    events: int
    reads: int
    invocations: int
    by_verb: Mapping[str, int]
    outside: Mapping[str, int]
    """Work no host's chain causes (`bench_deliveries`), as totals: not per host."""

    def per(self, hosts: int) -> dict[str, float]:
        """Each count divided by `hosts` (rounded for reports)."""
        return {
            "writes": round(self.writes / hosts, 3),
            "events": round(self.events / hosts, 3),
            "reads": round(self.reads / hosts, 3),
            "invocations": round(self.invocations / hosts, 3),
        }


def window(records: Sequence[AuditRecord], deliveries: Counter[Cause]) -> Window:
    """Count the chain's requests among `records` (one phase's slice of the audit) and the
    phase's `deliveries` by cause; resync's requests and IPPool events' LISTs apart."""
    mine = [r for r in records if r.identity in FUNCTIONS]
    resync = sum(r.identity == RESYNC for r in mine)
    resync_writes = sum(r.identity == RESYNC and _writes(r) for r in mine)
    scans = sum(_key(r) == POOL_SCAN for r in mine)
    ours = [r for r in mine if r.identity != RESYNC and _key(r) != POOL_SCAN]
    is_event = [_is_event(r) for r in ours]
    return Window(
        writes=sum(r.verb in WRITES and not e for r, e in zip(ours, is_event, strict=True))
        + resync_writes,
        events=sum(r.verb in WRITES and e for r, e in zip(ours, is_event, strict=True)),
        reads=sum(r.verb in READS for r in ours),
        invocations=deliveries[Cause.CHAIN],
        by_verb=dict(Counter(f"{r.identity} {r.verb} {r.resource}" for r in ours)),
        outside={
            **{c.value: deliveries[c] for c in Cause if c is not Cause.CHAIN},
            "pool_event_reads": scans,
            "resync_requests": resync,
            "resync_writes": resync_writes,
        },
    )


def _is_event(record: AuditRecord) -> bool:
    return record.resource == "events" and record.api_group == ""


def _writes(record: AuditRecord) -> bool:
    """A write that counts (`writes_per_host`): not a core/v1 Event."""
    return record.verb in WRITES and not _is_event(record)


def _key(record: AuditRecord) -> tuple[str, str, str, str]:
    return (record.identity, record.verb, record.resource, record.selector)


def of_identity(records: Sequence[AuditRecord], identity: str, per: int) -> dict[str, float]:
    """Reads and writes (Events included: the floor writes none) by one other identity, per
    `per` units (the loaded floor's requests per sampled host, counted like the functions')."""
    mine = [r for r in records if r.identity == identity]
    reads, writes = sum(r.verb in READS for r in mine), sum(r.verb in WRITES for r in mine)
    return {"reads": round(reads / max(per, 1), 3), "writes": round(writes / max(per, 1), 3)}
