"""host-registration (BareMetalHost events, Resource or Reference mode: `edge.current`).

For a host paused with exactly `metal3.io/preprovisioning` and no network data name: find its
template and create one IPClaim per pool (a template without pools is rendered at once). For a
host paused for us whose name the user already set: release it once that Secret is valid, or
say why not. A host we released that CAPM3 associated with a Metal3Machine gets the IP
lifecycle step (`chain.lifecycle`): our claims are lent to CAPM3's Metal3Data, never deleted.
Every other host is left alone: no API call beyond the event, no write.
"""

from __future__ import annotations

import functools
import logging

from cloudevents.core.base import BaseCloudEvent
from flask import Flask

from dhcpless.chain import edge, lifecycle, repause, slipped, state
from dhcpless.chain.act import act
from dhcpless.chain.decide import Actions
from dhcpless.chain.gate import gate
from dhcpless.events import Operation
from dhcpless.keys import FunctionName
from dhcpless.kube import Kube, from_environment
from dhcpless.models import BareMetalHost
from dhcpless.web import Settings, create_function_app

log = logging.getLogger(__name__)
NAME = FunctionName.HOST_REGISTRATION


def create_app(kube: Kube | None = None, settings: Settings | None = None) -> Flask:
    settings = settings or Settings.from_environment()  # read once, here
    handler = functools.partial(handle, kube=kube or from_environment(), settings=settings)
    return create_function_app(NAME, handler, settings)


def handle(cloudevent: BaseCloudEvent, kube: Kube, settings: Settings) -> None:
    event = edge.event_about(cloudevent, "BareMetalHost")
    seen = edge.current(event, BareMetalHost, kube.get_host, delete_needs_object=False)
    if lifecycle.done(seen):  # without the source's selector: still no read (README)
        log.info("host %s/%s: done, nothing to do", seen.namespace, seen.name)
        return
    if event.operation is not Operation.DELETE and slipped.slipped(seen):  # one Warning
        slipped.record(kube, kube.get_host(seen.namespace, seen.name), settings)
        return
    if event.operation is not Operation.DELETE and lifecycle.lendable(seen):
        lend_claims(kube, seen, settings)
        return
    if event.operation is Operation.DELETE or not gate(seen).ours:
        log.info("host %s/%s: %s, nothing to do", seen.namespace, seen.name, gate(seen))
        return
    host = kube.get_host(seen.namespace, seen.name)  # events are hints: re-read (Gone -> 204)
    act(decide(state.gather_registration(kube, host)), kube, settings, host)


def lend_claims(kube: Kube, seen: BareMetalHost, settings: Settings) -> None:
    """Re-read (events are hints), then lend our claims to the host's Metal3Data."""
    host = kube.get_host(seen.namespace, seen.name)
    if lifecycle.lendable(host):
        act(lifecycle.decide(lifecycle.gather(kube, host)), kube, settings, host)


def decide(current: state.RegistrationState) -> Actions:
    """Pure: see `dhcpless.chain.state.decide_registration` (and `chain.repause`)."""
    return repause.explain(current.host, state.decide_registration(current))
