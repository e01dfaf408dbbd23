"""What the functions asked of the API in one window of the run, from the sandbox's audit.

Definitions (the README's Performance section repeats them):
* a **write** is a create, update, patch, delete or deletecollection by a function's identity
  (its own bearer token) on anything but core/v1 Events; Events are counted apart;
* a **read** is a get or list by a function's identity (watches are the sources', not theirs);
* an **invocation** is one event delivered to one function (retries included).
IPAM, BMO, the sources and the bench itself use other identities and are never counted.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from dhcpless.keys import FunctionName
from dhcpless.sandbox.apiserver import AuditRecord

WRITES = frozenset({"create", "update", "patch", "delete", "deletecollection"})
READS = frozenset({"get", "list"})
FUNCTIONS = frozenset(f.value for f in FunctionName)


@dataclass(frozen=True)
class Window:
    """Counts of one phase (batch, lifecycle, idle), over every function."""

    writes: int
    events: int
    reads: int
    invocations: int
    by_verb: Mapping[str, int]

    def per(self, hosts: int) -> dict[str, float]:
        """Each count divided by `hosts` (rounded for reports)."""
        return {
            "writes": round(self.writes / hosts, 3),
            "events": round(self.events / hosts, 3),
            "reads": round(self.reads / hosts, 3),
            "invocations": round(self.invocations / hosts, 3),
        }


def window(records: Sequence[AuditRecord], invocations: int) -> Window:
    """Count the functions' requests among `records` (one phase's slice of the audit)."""
    ours = [r for r in records if r.identity in FUNCTIONS]
    is_event = [r.resource == "events" and r.api_group == "" for r in ours]
    return Window(
        writes=sum(r.verb in WRITES and not e for r, e in zip(ours, is_event, strict=True)),
        events=sum(r.verb in WRITES and e for r, e in zip(ours, is_event, strict=True)),
        reads=sum(r.verb in READS for r in ours),
        invocations=invocations,
        by_verb=dict(Counter(f"{r.identity} {r.verb} {r.resource}" for r in ours)),
    )


def of_identity(records: Sequence[AuditRecord], identity: str, per: int) -> dict[str, float]:
    """Reads and writes (Events included: the floor writes none) by one other identity, per
    `per` units (the loaded floor's requests per sampled host, counted like the functions')."""
    mine = [r for r in records if r.identity == identity]
    reads, writes = sum(r.verb in READS for r in mine), sum(r.verb in WRITES for r in mine)
    return {"reads": round(reads / max(per, 1), 3), "writes": round(writes / max(per, 1), 3)}
