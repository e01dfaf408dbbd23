"""ipclaim-fulfilment (IPClaim, IPAddressClaim and IPPool events; Reference mode: `edge.current`).

Only claims we created (our labels) matter. When every pool's claim of the host has
`status.address`, read the IPAddresses, render exactly as CAPM3 does, and create the Secret
`<host>-preprov-networkdata` (once: an existing different Secret is reported, not replaced).
A claim with `status.errorMessage` becomes a Warning Event quoting it; the host stays paused.

Self-healing (`chain.heal`): an IPPool added or changed deletes our claims of that pool that
IPAM failed (IPAM never retries them), with an Event each; the delete event of a claim of ours
re-drives its host's registration, which claims again from the pool as it is now.

External IPAM (`chain.external`): our CAPI IPAddressClaims of non-Metal3 pools count like
IPClaims: the host renders once every claim of either kind has its address; a claim the
provider failed (Ready False) becomes a Warning Event quoting it, and is not retried.
"""

from __future__ import annotations

import functools
import logging

from cloudevents.core.base import BaseCloudEvent
from flask import Flask

from dhcpless import events
from dhcpless.chain import edge, external, fastpath, heal, reclaim, state
from dhcpless.chain.act import act
from dhcpless.chain.decide import Actions
from dhcpless.chain.gate import Gate, gate
from dhcpless.errors import Gone
from dhcpless.events import Operation
from dhcpless.keys import FunctionName
from dhcpless.kube import Kube, from_environment
from dhcpless.models import IPAddressClaim, IPClaim, IPPool
from dhcpless.web import Settings, create_function_app

log = logging.getLogger(__name__)
NAME = FunctionName.IPCLAIM_FULFILMENT
host_of = heal.host_of


def create_app(kube: Kube | None = None, settings: Settings | None = None) -> Flask:
    settings = settings or Settings.from_environment()  # read once, here
    handler = functools.partial(handle, kube=kube or from_environment(), settings=settings)
    return create_function_app(NAME, handler, settings)


def handle(cloudevent: BaseCloudEvent, kube: Kube, settings: Settings) -> None:
    kind = events.parse_apiserver_event(cloudevent).ref.kind
    if kind == "IPPool":
        on_pool(edge.event_about(cloudevent, "IPPool"), kube, settings)
        return
    if kind == "IPAddressClaim":
        on_capi_claim(edge.event_about(cloudevent, "IPAddressClaim"), kube, settings)
        return
    event = edge.event_about(cloudevent, "IPClaim")
    claim = edge.current(event, IPClaim, kube.get_claim, delete_needs_object=True)
    owner = host_of(claim)
    if owner is None:
        log.info("IPClaim %s/%s: not ours, nothing to do", *_where(claim))
        return
    if event.operation is Operation.DELETE:
        redrive(kube, owner, settings, claim)
        return
    if claim.status.address is None and not claim.status.error_message:
        # IPAM's own steps (the add, its finalizer): nothing to render or report yet, no read
        log.info("IPClaim %s/%s: not fulfilled yet, nothing to do", *_where(claim))
        return
    if fastpath.handle(claim, owner, kube, settings):
        return
    host = kube.get_host(*owner)  # Gone -> 204: the host is not there any more
    current = state.gather_fulfilment(kube, host)
    if current is not None:
        act(decide(current), kube, settings, host)


def on_pool(event: events.ApiServerEvent, kube: Kube, settings: Settings) -> None:
    """The pool may have room now: retry our claims of it that IPAM failed."""
    pool = edge.current(event, IPPool, kube.get_pool, delete_needs_object=False)
    if event.operation is Operation.DELETE:
        return
    namespace = pool.metadata.namespace or "default"
    for owner, claims in heal.failed_in_pool(kube, namespace, pool.metadata.name).items():
        try:
            host = kube.get_host(*owner)
        except Gone:
            continue  # garbage collection takes its claims
        act(heal.decide_retry(host, claims), kube, settings, host)


def on_capi_claim(event: events.ApiServerEvent, kube: Kube, settings: Settings) -> None:
    """Our CAPI claim changed: render once every claim has its address, or report a failure."""
    claim = edge.hint(event, IPAddressClaim)
    owner = external.host_of(claim)
    where = f"IPAddressClaim {claim.metadata.namespace}/{claim.metadata.name}"
    if owner is not None and event.operation is Operation.DELETE:
        redrive(kube, owner, settings)  # a host still waiting claims again
        return
    if owner is None or (not claim.address_name and not claim.failure):
        log.info("%s: not ours or not answered yet, nothing to do", where)
        return
    host = kube.get_host(*owner)  # Gone -> 204: the host is not there any more
    current = state.gather_fulfilment(kube, host)
    if current is not None:
        act(decide(current), kube, settings, host)


def redrive(
    kube: Kube, owner: tuple[str, str], settings: Settings, gone: IPClaim | None = None
) -> None:
    """A claim of ours is gone: a host still waiting claims again (missing claims only); a
    released host whose own claim it was claims it again at once (`chain.reclaim`)."""
    try:
        host = kube.get_host(*owner)
    except Gone:
        return
    if gate(host) is Gate.WAITING:
        act(state.decide_registration(state.gather_registration(kube, host)), kube, settings, host)
    elif gone is not None and reclaim.released(host):
        act(reclaim.decide(host, gone), kube, settings, host)


def decide(current: state.FulfilmentState) -> Actions:
    """Pure: see `dhcpless.chain.state.decide_fulfilment` (no retry on a claim's own event)."""
    return state.decide_fulfilment(current)


def _where(claim: IPClaim) -> tuple[str, str]:
    return claim.metadata.namespace or "default", claim.metadata.name
