"""resync (PingSource events, `dev.knative.sources.ping`).

The ApiServerSource does not replay after a restart and Knative drops events after their last
retry, so every tick LISTs the BareMetalHosts of its one namespace (`settings.ResyncSettings`:
a namespaced Role is enough), or with the cluster-wide option of each namespace the sources'
selector selects, and re-drives each host paused for us through the same decision
code the other functions use: claims, render, release. Idempotent acts make a host that is
already further along cost only reads. The same LIST shows hosts we released that hang in
inspection (`chain.hang`): those, and only those, get their addresses read and one Warning.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from datetime import UTC, datetime

from cloudevents.core.base import BaseCloudEvent
from flask import Flask

from dhcpless import events
from dhcpless.chain import decide as chain_decide
from dhcpless.chain import hang, lifecycle, lookup, repause, slipped, stalls, state
from dhcpless.chain.act import act
from dhcpless.chain.gate import Gate, gate, secret_name
from dhcpless.errors import DhcplessError
from dhcpless.keys import FunctionName
from dhcpless.kube import Kube, from_environment, namespaces
from dhcpless.models import BareMetalHost
from dhcpless.web import Settings, create_function_app
from functions.resync.settings import ResyncSettings, one_settings

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
    handler = functools.partial(
        handle, kube=kube or from_environment(), settings=chosen, resync=chosen
    )
    return create_function_app(NAME, handler, chosen)


def handle(
    cloudevent: BaseCloudEvent, kube: Kube, settings: Settings, resync: ResyncSettings
) -> None:
    events.require_ping(cloudevent)
    now = datetime.now(UTC)
    hosts = [h for ns in watched_namespaces(kube, resync) for h in kube.list_hosts(ns)]
    paused = [h for h in hosts if gate(h).ours]
    lent = [h for h in hosts if lifecycle.lendable(h)]
    hung = [h for h in hosts if hang.hanging(h, now, resync.hang_seconds)]
    log.info("resync: %d host(s) paused for us, %d hanging", len(paused), len(hung))
    for host in paused:
        _guarded(reconcile, kube, host, settings)
    for host in filter(slipped.slipped, hosts):  # one Warning each (deduplicated by name)
        _guarded(slipped.record, kube, host, settings)
    for host in lent:  # the lifecycle step too: its BareMetalHost event may have been lost
        _guarded(lend, kube, host, settings)
    for host in hung:
        _guarded(
            functools.partial(report_hang, threshold=resync.hang_seconds), kube, host, settings
        )


def watched_namespaces(kube: Kube, resync: ResyncSettings) -> list[str]:
    """Its one namespace, or under the cluster-wide option the ones the selector selects."""
    if not resync.namespace_selector:
        return [resync.namespace]
    return namespaces.selected(kube, resync.namespace_selector)


def _guarded(
    step: Callable[[Kube, BareMetalHost, Settings], None],
    kube: Kube,
    host: BareMetalHost,
    settings: Settings,
) -> None:
    """One host's trouble must not stop the rest (the next tick retries it)."""
    try:
        step(kube, host, settings)
    except DhcplessError as err:
        log.warning("resync host %s/%s: %s", host.namespace, host.name, err.reason)


def reconcile(kube: Kube, host: BareMetalHost, settings: Settings) -> None:
    """Registration, then fulfilment, then release, each from freshly read state."""
    decided = state.decide_registration(state.gather_registration(kube, host))
    act(repause.explain(host, decided), kube, settings, host)
    if gate(host) is not Gate.WAITING:
        return
    current = state.gather_fulfilment(kube, host)
    if current is not None:
        act(state.decide_fulfilment(current, retry_failed=True), kube, settings, host)
        now = datetime.now(UTC)  # never answered: say why, or nudge IPAM (a tick)
        unanswered = stalls.gather(kube, current.claims, now)
        unanswered += stalls.external_pending(current.outside, now)
        act(stalls.decide(host, unanswered, now), kube, settings, host)
    secret = lookup.secret_or_none(kube, host.namespace, secret_name(host))
    if secret is not None:
        fresh = kube.get_host(host.namespace, host.name)
        act(chain_decide.decide_release(fresh, secret), kube, settings, fresh)


def lend(kube: Kube, host: BareMetalHost, settings: Settings) -> None:
    """Lend the host's claims to its Metal3Data (`chain.lifecycle`); nothing when lent."""
    act(lifecycle.decide(lifecycle.gather(kube, host)), kube, settings, host)


def report_hang(kube: Kube, host: BareMetalHost, settings: Settings, threshold: float) -> None:
    """One Warning naming what the ramdisk was given (deduplicated by the Event's name)."""
    act(hang.decide_hang(host, hang.claimed_addresses(kube, host), threshold), kube, settings, host)
