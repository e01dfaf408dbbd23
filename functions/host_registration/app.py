"""host-registration (BareMetalHost events, Resource or Reference mode: `edge.current`).

For a host paused with exactly `metal3.io/preprovisioning` and no network data name: find its
template and create one IPClaim per pool (a template without pools is rendered at once). For a
host paused for us whose name the user already set: release it once that Secret is valid, or
say why not. A host we released that reaches `available` gets the IP lifecycle step
(`chain.lifecycle`: common-pool claims deleted, optionally pre-allocated first; decoupled ones
kept unless opted in; settings read once from the environment in `create_app`). Every other
host is left alone: no API call beyond the event, no write.
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


def create_app(
    kube: Kube | None = None,
    settings: Settings | None = None,
    ips: lifecycle.LifecycleSettings | None = None,
) -> Flask:
    """`ips` None: the IP lifecycle opt-ins are read from the environment, once, here."""
    ips = ips or lifecycle.LifecycleSettings.from_environment()
    settings = settings or Settings(release_decoupled=ips.release_decoupled)
    log.info("host-registration: %s", ips)
    kube = kube or from_environment()
    handler = functools.partial(handle, kube=kube, settings=settings, ips=ips)
    return create_function_app(NAME, handler, settings)


def handle(
    cloudevent: BaseCloudEvent,
    kube: Kube,
    settings: Settings,
    ips: lifecycle.LifecycleSettings | None = None,
) -> None:
    event = edge.event_about(cloudevent, "BareMetalHost")
    seen = edge.current(event, BareMetalHost, kube.get_host, delete_needs_object=False)
    if lifecycle.done(seen):  # without the source's selector: still no read (README)
        log.info("host %s/%s: done, nothing to do", seen.namespace, seen.name)
        return
    if event.operation is not Operation.DELETE and slipped.slipped(seen):  # one Warning
        slipped.record(kube, kube.get_host(seen.namespace, seen.name), settings)
        return
    if event.operation is not Operation.DELETE and lifecycle.pre_provisioning_over(seen):
        release_claims(kube, seen, settings, ips or lifecycle.LifecycleSettings())
        return
    if event.operation is Operation.DELETE or not gate(seen).ours:
        log.info("host %s/%s: %s, nothing to do", seen.namespace, seen.name, gate(seen))
        return
    host = kube.get_host(seen.namespace, seen.name)  # events are hints: re-read (Gone -> 204)
    act(decide(state.gather_registration(kube, host)), kube, settings, host)


def release_claims(
    kube: Kube, seen: BareMetalHost, settings: Settings, ips: lifecycle.LifecycleSettings
) -> None:
    """Re-read (events are hints), then the IP lifecycle step for an available host."""
    host = kube.get_host(seen.namespace, seen.name)
    if lifecycle.pre_provisioning_over(host):
        act(lifecycle.decide(lifecycle.gather(kube, host, ips), ips), kube, settings, host)


def decide(current: state.RegistrationState) -> Actions:
    """Pure: see `dhcpless.chain.state.decide_registration` (and `chain.repause`)."""
    return repause.explain(current.host, state.decide_registration(current))
