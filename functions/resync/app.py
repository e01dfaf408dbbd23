"""resync (PingSource events, `dev.knative.sources.ping`).

The ApiServerSource does not replay after a restart and Knative drops events after their last
retry, so every tick LISTs the BareMetalHosts of its one namespace (`settings.ResyncSettings`:
a namespaced Role is enough), or with the cluster-wide option of each namespace the sources'
selector selects (and then warns about IPPools of two namespaces that overlap,
`chain.decide.overlaps`), and runs the host's one pipeline (`chain.pipeline`, the same the other
functions run) for each host that is paused for us, slipped past the pause, lendable to CAPM3
hanging in inspection (`chain.decide.hang`), or released and missing a claim its record names
(`chain.decide.reclaim`: one LIST of our claims per namespace so recorded, handed to those
hosts' pipelines); on a tick the pipeline also retries failed claims and explains unanswered
ones. Every other host costs nothing beyond the LISTs. Ticks do not overlap and the due hosts
run a few at a time (`ticks`: why, with the numbers).
"""

from __future__ import annotations

import functools
import logging
from datetime import UTC, datetime

from cloudevents.core.base import BaseCloudEvent
from flask import Flask, Response

from dhcpless.chain import act as performer
from dhcpless.chain.decide import corner, hang, lifecycle, overlaps, reclaim, repair, slipped
from dhcpless.chain.facts import Occasion
from dhcpless.chain.gate import gate
from dhcpless.chain.gather import Listed, released
from dhcpless.errors import DhcplessError
from dhcpless.keys import FunctionName
from dhcpless.kube import Kube, from_environment, namespaces
from dhcpless.models import BareMetalHost, IPClaim
from dhcpless.serving import events
from dhcpless.serving.web import Settings, create_function_app
from functions.resync import fleet
from functions.resync.settings import ResyncSettings, one_settings
from functions.resync.ticks import OneAtATime, run_bounded

log = logging.getLogger(__name__)
NAME = FunctionName.RESYNC


def create_app(
    kube: Kube | None = None,
    settings: Settings | None = None,
    resync: ResyncSettings | None = None,
) -> Flask:
    """One `ResyncSettings`, read from the environment once, here, unless given (as `settings`,
    or as `resync`, the older keyword: see `settings.one_settings`)."""
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
) -> None:
    """One tick, unless one is running (`gate`, one per app): that one covers every host."""
    events.require_ping(cloudevent)
    if gate is None:
        return tick(kube, settings, resync, latest)
    if not gate.enter():
        log.info("resync: a tick is running already; this ping has nothing to add")
        return None
    try:
        return tick(kube, settings, resync, latest)
    finally:
        gate.leave()


def tick(
    kube: Kube, settings: Settings, resync: ResyncSettings, latest: fleet.Latest | None = None
) -> None:
    """LIST the hosts, pick the due ones, run their pipelines `resync.workers` at a time; then
    the fleet gauges from what was listed and decided (`fleet`)."""
    now = datetime.now(UTC)
    watched = watched_namespaces(kube, resync)
    hosts = [h for ns in watched for h in kube.list_hosts(ns)]
    held = claims_held(kube, hosts)
    due = [h for h in hosts if due_for_tick(h, now, resync.hang_seconds, _in(held, h))]
    log.info("resync: %d of %d host(s) to reconcile", len(due), len(hosts))
    reasons: dict[tuple[str, str], str] = {}

    def run(host: BareMetalHost) -> None:
        reason = _guarded(kube, host, settings, now, resync.hang_seconds, _in(held, host))
        reasons[host.namespace, host.name] = reason or ""

    run_bounded(run, due, resync.workers)  # as listed: the pipeline reads no host again
    if len(watched) > 1:  # the cluster-wide layout: pools of two tenants may overlap
        report_overlaps(kube, settings, watched)
    if latest is not None:
        seen = (fleet.seen(h, reasons.get((h.namespace, h.name)), now, resync.hang_seconds)
                for h in hosts)  # fmt: skip
        latest.publish(fleet.exposition([s for s in seen if s is not None], watched, now))


def report_overlaps(kube: Kube, settings: Settings, watched: list[str]) -> None:
    """One LIST of IPPools per served namespace; a `PoolsOverlap` Warning on each pool that
    can hand out an address a pool of another namespace can (`chain.decide.overlaps`). A
    namespace that cannot be listed now is left out until the next tick."""
    pools = {}
    for namespace in watched:
        try:
            pools[namespace] = kube.list_pools(namespace)
        except DhcplessError as err:
            log.warning("resync: pools in %s not listed: %s", namespace, err.reason)
    performer.report(overlaps.across(pools), kube, settings)


def claims_held(kube: Kube, hosts: list[BareMetalHost]) -> dict[str, list[IPClaim]]:
    """Our claims in each namespace a released host's record names (`chain.decide.reclaim`):
    one LIST per namespace, not one per host. A namespace that cannot be listed now is left
    out (its hosts are not re-claimed this tick; the next tick tries again)."""
    found: dict[str, list[IPClaim]] = {}
    for namespace in sorted({r[0] for h in hosts if (r := reclaim.recorded(h)) is not None}):
        try:
            found[namespace] = released.ours_in(kube, namespace)
        except DhcplessError as err:
            log.warning("resync: claims in %s not listed: %s", namespace, err.reason)
    return found


def _in(held: dict[str, list[IPClaim]], host: BareMetalHost) -> Listed | None:
    """The claims listed in the namespace of the host's record, if listed."""
    record = reclaim.recorded(host)
    if record is None or record[0] not in held:
        return None
    return record[0], held[record[0]]


def due_for_tick(
    host: BareMetalHost, now: datetime, hang_seconds: float, held: Listed | None = None
) -> bool:
    """Pure: paused for us, slipped past the pause, lendable to CAPM3 (its event may have
    been lost), hanging in inspection, or released and missing a claim its record names
    (`held`: the claims listed there; its DELETE event may have been lost). Every other host
    costs nothing more than the LISTs."""
    return (
        gate(host).ours
        or slipped.slipped(host)
        or lifecycle.lendable(host)
        or hang.hanging(host, now, hang_seconds)
        or repair.wanted(host)
        or corner.unclear_pause(host) is not None
        or (held is not None and bool(reclaim.missing(host, tuple(held[1]))))
    )


def watched_namespaces(kube: Kube, resync: ResyncSettings) -> list[str]:
    """Its one namespace, or under the cluster-wide option the ones the selector selects."""
    if not resync.namespace_selector:
        return [resync.namespace]
    return namespaces.selected(kube, resync.namespace_selector)


def _guarded(
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
        facts = pipeline.reconcile(
            kube, host, settings, Occasion.TICK, now, hang_seconds=hang_seconds, listed=listed
        )
    except DhcplessError as err:
        log.warning("resync host %s/%s: %s", host.namespace, host.name, err.reason)
        return None
    if facts is None:
        return None
    return fleet.waiting_reason(a.reason for a in decide(facts) if isinstance(a, RecordEvent))
