"""resync (PingSource events, `dev.knative.sources.ping`).

The ApiServerSource does not replay after a restart and Knative drops events after their last
retry, so every tick LISTs the BareMetalHosts of its one namespace (`settings.ResyncSettings`:
a namespaced Role is enough), or with the cluster-wide option of each namespace the sources'
selector selects (and then warns about IPPools of two namespaces that overlap,
`chain.decide.overlaps`), and runs the host's one pipeline (`chain.pipeline`, the same the other
functions run) for each host that is paused for us, slipped past the pause, lendable to CAPM3
hanging in inspection (`chain.decide.hang`), or released and missing a claim its record names
(`chain.decide.reclaim`: our claims of a page's recorded hosts, listed per page and handed to
those hosts' pipelines); on a tick the pipeline also retries failed claims and explains
unanswered ones. Every other host costs nothing beyond the LISTs. Ticks do not overlap, the
due hosts run a few at a time (`ticks`: why, with the numbers), a page of hosts is held at a
time (`pages`), and a tick stops at its budget, below the Service's timeout, where the next
continues (`cursor`; `rounds`: one page's work).
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable
from datetime import UTC, datetime

from cloudevents.core.base import BaseCloudEvent
from flask import Flask, Response

from dhcpless.chain import act as performer
from dhcpless.chain.decide import overlaps
from dhcpless.chain.gather import fleet as fleet_reads
from dhcpless.keys import FunctionName
from dhcpless.kube import Kube, from_environment
from dhcpless.serving import events
from dhcpless.serving.web import create_function_app
from dhcpless.settings import Settings
from functions.resync import cursor, fleet, pages, rounds
from functions.resync.settings import ResyncSettings, one_settings
from functions.resync.ticks import OneAtATime

log = logging.getLogger(__name__)
NAME = FunctionName.RESYNC


def create_app(
    kube: Kube | None = None,
    settings: Settings | None = None,
    resync: ResyncSettings | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> Flask:
    """One `ResyncSettings`, read from the environment once, here, unless given (as `settings`,
    or as `resync`, the older keyword: see `settings.one_settings`). `clock` times a tick's
    budget (tests give a slow one)."""
    chosen = one_settings(settings, resync)
    log.info("resync: namespace %s, hang after %gs", chosen.namespace, chosen.hang_seconds)
    latest = fleet.Latest(chosen.metrics_push_url)
    handler = functools.partial(
        handle,
        kube=kube or from_environment(NAME.value),
        settings=chosen,
        resync=chosen,
        gate=OneAtATime(),
        latest=latest,
        clock=clock,
    )
    app = create_function_app(NAME, handler, chosen)
    app.add_url_rule("/metrics", "metrics", lambda: Response(latest.text, mimetype=fleet.TEXT))
    return app


def handle(
    cloudevent: BaseCloudEvent,
    kube: Kube,
    settings: Settings,
    resync: ResyncSettings,
    gate: OneAtATime | None = None,
    latest: fleet.Latest | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> None:
    """One tick, unless one is running (`gate`, one per app): that one covers every host."""
    events.require_ping(cloudevent)
    if gate is None:
        return tick(kube, settings, resync, latest, clock)
    if not gate.enter():
        log.info("resync: a tick is running already; this ping has nothing to add")
        return None
    try:
        return tick(kube, settings, resync, latest, clock)
    finally:
        gate.leave()


def tick(
    kube: Kube,
    settings: Settings,
    resync: ResyncSettings,
    latest: fleet.Latest | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> None:
    """The hosts a page at a time (`pages`), from where the last tick stopped (`cursor`): pick
    the page's due ones, run their pipelines `resync.workers` at a time, until the budget is
    spent (after one host at least: every tick makes progress); record where it stopped. The
    rest is still listed, for the fleet gauges of every host (`fleet`)."""
    now, started = datetime.now(UTC), clock()
    watched = watched_namespaces(kube, resync)
    stored = cursor.read(kube, resync.namespace)
    state = rounds.Round()

    def over() -> bool:
        return state.ran and clock() - started >= resync.budget_seconds

    for page in pages.rotation(kube, watched, stored.key):
        done = state.stopped_at is None
        reasons = rounds.reconcile(kube, settings, resync, now, page, state, over) if done else {}
        state.seen += [s for h in page if (s := rounds.seen(h, reasons, now, resync)) is not None]
    cursor.save(kube, resync.namespace, stored, state.stopped_at)
    log.info("resync: %d host(s) reconciled, stopped at %s", state.due, state.stopped_at)
    if len(watched) > 1:  # the cluster-wide layout: pools of two tenants may overlap
        report_overlaps(kube, settings, watched)
    if latest is not None:
        latest.publish(fleet.exposition(state.seen, watched, now))


def report_overlaps(kube: Kube, settings: Settings, watched: list[str]) -> None:
    """One LIST of IPPools per served namespace; a `PoolsOverlap` Warning on each pool that
    can hand out an address a pool of another namespace can (`chain.decide.overlaps`). A
    namespace that cannot be listed now is left out until the next tick."""
    performer.report(overlaps.across(fleet_reads.pools_of(kube, watched)), kube, settings)


def watched_namespaces(kube: Kube, resync: ResyncSettings) -> list[str]:
    """Its one namespace, or under the cluster-wide option the ones the selector selects."""
    return fleet_reads.watched(kube, resync.namespace, resync.namespace_selector)
