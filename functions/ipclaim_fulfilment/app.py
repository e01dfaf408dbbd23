"""ipclaim-fulfilment (IPClaim, IPAddressClaim and IPPool events; Reference mode: `edge.current`).

Only claims we created (our labels) matter. When every pool's claim of the host has
`status.address`, read the IPAddresses, render exactly as CAPM3 does, and create the Secret
`<host>-preprov-networkdata` (once: an existing different Secret is reported, not replaced).
A claim with `status.errorMessage` becomes a Warning Event quoting it; the host stays paused.

Self-healing (`chain.decide.heal`): an IPPool added or changed deletes our claims of that
pool that IPAM failed (IPAM never retries them), with an Event each; the delete event of a
claim of ours runs its host's pipeline, which claims again from the pool as it is now. An
IPPool event that cannot have made room (IPAM's status write after an allocation:
`chain.hints`) lists nothing.

External IPAM (`chain.decide.external`): our CAPI IPAddressClaims of non-Metal3 pools count
like IPClaims: the host renders once every claim of either kind has its address; a claim the
provider failed (Ready False) becomes a Warning Event quoting it, and is not retried.

Every path ends in the host's one pipeline (`chain.pipeline`), after the cheap exits above.
"""

from __future__ import annotations

import functools
import logging

from cloudevents.core.base import BaseCloudEvent
from flask import Flask

from dhcpless.chain import cause, pipeline
from dhcpless.chain.gather import entry
from dhcpless.chain.hints import Hints
from dhcpless.chain.predicates import ownership, pool_room
from dhcpless.keys import FunctionName
from dhcpless.kube import Kube, from_environment
from dhcpless.models import IPAddressClaim, IPClaim, IPPool
from dhcpless.serving import edge, events
from dhcpless.serving.events import Operation
from dhcpless.serving.web import create_function_app
from dhcpless.settings import Settings

log = logging.getLogger(__name__)
NAME = FunctionName.IPCLAIM_FULFILMENT
host_of = ownership.host_of


def create_app(kube: Kube | None = None, settings: Settings | None = None) -> Flask:
    settings = settings or Settings.from_environment()  # read once, here
    kube = kube or from_environment(NAME.value)
    handler = functools.partial(handle, kube=kube, settings=settings, hints=Hints())
    return create_function_app(NAME, handler, settings)


def handle(
    cloudevent: BaseCloudEvent, kube: Kube, settings: Settings, hints: Hints | None = None
) -> None:
    """Parse once, take the cheap exits of each kind, then the host's pipeline. `hints`:
    what this process saw (`chain.hints`; None: nothing, every event reads as a fresh process
    does)."""
    event = events.parse_apiserver_event(cloudevent)
    kind = event.ref.kind
    hints = hints or Hints()
    if kind == "IPPool":
        on_pool(event, kube, settings, hints)
    elif kind == "IPAddressClaim":
        on_capi_claim(event, kube, settings)
    elif kind == "IPClaim":
        on_claim(event, kube, settings, hints)
    else:
        raise events.InvalidEvent(f"expected an IPClaim, IPAddressClaim or IPPool event: {kind}")


def on_claim(
    event: events.ApiServerEvent, kube: Kube, settings: Settings, hints: Hints | None = None
) -> None:
    """A claim of ours: deleted (claim again), answered (render or report), else nothing.
    A failed one makes its pool's next event list again (`chain.hints.Rooms`): the pool may
    have changed before IPAM wrote the failure."""
    hints = hints or Hints()
    claim = edge.current(event, IPClaim, entry.reader(kube, IPClaim), delete_needs_object=True)
    owner = host_of(claim)
    namespace = claim.metadata.namespace or "default"
    where = f"IPClaim {namespace}/{claim.metadata.name}"
    if owner is not None and claim.status.error_message:
        hints.rooms.forget(namespace, claim.spec.pool.name)
    if owner is None:
        log.info("%s: not ours, nothing to do", where)
    elif event.operation is Operation.DELETE:
        pipeline.reconcile(kube, owner, cause.ClaimDeleted(claim), settings)
    elif claim.status.address is None and not claim.status.error_message:
        # IPAM's own steps (the add, its finalizer): nothing to render or report yet, no read
        log.info("%s: not fulfilled yet, nothing to do", where)
    else:
        with hints.hosts.one(owner):  # a second answer of this host waits (`chain.serial`)
            _unless_decided(kube, owner, settings, claim, hints)


def _unless_decided(
    kube: Kube, owner: tuple[str, str], settings: Settings, claim: IPClaim, hints: Hints
) -> None:
    if hints.decided.covers(claim):
        where = f"IPClaim {claim.metadata.namespace}/{claim.metadata.name}"
        log.info("%s: this version was decided on already, nothing to do", where)
    else:
        _when_all_answered(kube, settings, claim, hints)


def _when_all_answered(kube: Kube, settings: Settings, claim: IPClaim, hints: Hints) -> None:
    """Only the last answer of the host's claims goes on (`gather.concerned`: one LIST of
    them, handed to the pipeline); once that run returns, the versions it listed are
    remembered (`chain.hints.Decided`)."""
    for ran in pipeline.run(kube, cause.ClaimsAnswered(claim), settings):
        if isinstance(ran, cause.ClaimsAnswered) and ran.listed is not None:
            hints.decided.record(ran.listed[1])


def on_pool(event: events.ApiServerEvent, kube: Kube, settings: Settings, hints: Hints) -> None:
    """The pool may have room now: the hosts with claims of it that IPAM failed retry them, at
    most as many as it has free addresses, the longest waiting first (`heal.free_addresses`).
    Not when it cannot have gained room since this process last saw it (`chain.hints`)."""
    pool = edge.current(event, IPPool, entry.reader(kube, IPPool), delete_needs_object=False)
    namespace, name = pool.metadata.namespace or "default", pool.metadata.name
    if event.operation is Operation.DELETE:
        hints.rooms.forget(namespace, name)
        return
    if not hints.rooms.changed(pool):
        log.info("IPPool %s/%s: no room freed since last seen, nothing to do", namespace, name)
        return
    pipeline.run(kube, cause.PoolChanged(pool, pool_room.free_addresses(pool)), settings)


def on_capi_claim(event: events.ApiServerEvent, kube: Kube, settings: Settings) -> None:
    """Our CAPI claim: deleted (a waiting host claims again), answered, else nothing."""
    claim = edge.hint(event, IPAddressClaim)
    owner = ownership.host_of(claim)
    answered = bool(claim.address_name or claim.failure)
    if owner is not None and (event.operation is Operation.DELETE or answered):
        pipeline.reconcile(kube, owner, cause.CapiClaimAnswered(), settings)
        return
    where = f"IPAddressClaim {claim.metadata.namespace}/{claim.metadata.name}"
    log.info("%s: not ours or not answered yet, nothing to do", where)
