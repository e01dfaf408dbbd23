"""One resync tick's work on one page of hosts: which are due, and each one's pipeline.

`app.tick` walks the pages (`pages.rotation`) and hands each to `reconcile` until the budget
is spent (`cursor`); what a round keeps across pages is `Round`: whether a host ran, how many,
where it stopped, and the gauges' view of every host (`fleet.Seen`, a few fields a host).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from dhcpless.chain.cause import Listed, ResyncTick
from dhcpless.chain.gate import gate
from dhcpless.chain.gather import fleet as fleet_reads
from dhcpless.chain.predicates import on_host, ownership
from dhcpless.errors import DhcplessError
from dhcpless.kube import Kube
from dhcpless.models import BareMetalHost
from dhcpless.settings import Settings
from functions.resync import cursor, fleet, pages
from functions.resync.settings import ResyncSettings
from functions.resync.ticks import run_until

log = logging.getLogger(__name__)


@dataclass
class Round:
    """One tick's progress: whether a host ran, where it stopped, what the gauges need."""

    ran: bool = False
    due: int = 0
    stopped_at: cursor.Key | None = None
    seen: list[fleet.Seen] = field(default_factory=list)


def reconcile(
    kube: Kube,
    settings: Settings,
    resync: ResyncSettings,
    now: datetime,
    page: list[BareMetalHost],
    state: Round,
    over: Callable[[], bool],
) -> dict[cursor.Key, str]:
    """One page: its claims, its due hosts run until `over()`; the first not started is where
    the tick stopped. Returns each run host's waiting reason."""
    if over():
        state.stopped_at = pages.key(page[0])
        return {}
    held = fleet_reads.claims_held(kube, page)
    due = [h for h in page if due_for_tick(h, now, resync.hang_seconds, pages.held_for(held, h))]
    reasons: dict[cursor.Key, str] = {}

    def run(host: BareMetalHost) -> None:
        state.ran = True
        listed = pages.held_for(held, host)
        reasons[pages.key(host)] = (
            guarded(kube, host, settings, now, resync.hang_seconds, listed) or ""
        )

    skipped = run_until(run, due, resync.workers, over)  # as listed: no host is read again
    state.due += len(due) - len(skipped)
    state.stopped_at = pages.key(skipped[0]) if skipped else None
    return reasons


def seen(
    host: BareMetalHost, reasons: dict[cursor.Key, str], now: datetime, resync: ResyncSettings
) -> fleet.Seen | None:
    return fleet.seen(host, reasons.get(pages.key(host)), now, resync.hang_seconds)


def due_for_tick(
    host: BareMetalHost, now: datetime, hang_seconds: float, held: Listed | None = None
) -> bool:
    """Pure: paused for us, slipped past the pause, lendable to CAPM3 (its event may have
    been lost), hanging in inspection, or released and missing a claim its record names
    (`held`: the claims listed there; its DELETE event may have been lost). Every other host
    costs nothing more than the LISTs."""
    return (
        gate(host).ours
        or on_host.slipped(host)
        or on_host.lendable(host)
        or on_host.hanging(host, now, hang_seconds)
        or on_host.may_have_lost_secret(host)
        or on_host.unclear_pause(host) is not None
        or (held is not None and bool(ownership.missing(host, tuple(held[1]))))
    )


def guarded(
    kube: Kube,
    host: BareMetalHost,
    settings: Settings,
    now: datetime,
    hang_seconds: float,
    listed: Listed | None = None,
) -> str | None:
    """One host's trouble must not stop the rest (the next tick retries it). The pipeline (and
    the act layer and Event recorder it brings) is imported on a tick's first due host only:
    a tick with nothing due, the common case at rest, and the first start answer without it.
    Returns the waiting reason the host's decision gives (`fleet.waiting_reason`), if decided."""
    from dhcpless.chain import pipeline
    from dhcpless.chain.actions import RecordEvent
    from dhcpless.chain.decide import decide

    try:
        tick = ResyncTick(now, hang_seconds, listed)
        facts = pipeline.reconcile(kube, host, tick, settings)
    except DhcplessError as err:
        log.warning("resync host %s/%s: %s", host.namespace, host.name, err.reason)
        return None
    if facts is None:
        return None
    return fleet.waiting_reason(a.reason for a in decide(facts) if isinstance(a, RecordEvent))
