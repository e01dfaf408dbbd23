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

from dhcpless.chain import edge, pipeline
from dhcpless.chain.decide import lifecycle, slipped
from dhcpless.chain.gate import gate
from dhcpless.events import Operation
from dhcpless.keys import FunctionName
from dhcpless.kube import Kube, from_environment
from dhcpless.models import BareMetalHost
from dhcpless.web import Settings, create_function_app

log = logging.getLogger(__name__)
NAME = FunctionName.HOST_REGISTRATION


def create_app(kube: Kube | None = None, settings: Settings | None = None) -> Flask:
    settings = settings or Settings()
    handler = functools.partial(handle, kube=kube or from_environment(), settings=settings)
    return create_function_app(NAME, handler, settings)


def handle(cloudevent: BaseCloudEvent, kube: Kube, settings: Settings) -> None:
    """Cheap exits on the event's object (no read), then the pipeline on the host as read."""
    event = edge.event_about(cloudevent, "BareMetalHost")
    seen = edge.current(event, BareMetalHost, kube.get_host, delete_needs_object=False)
    if event.operation is Operation.DELETE or not worth_reading(seen):
        log.info("host %s/%s: %s, nothing to do", seen.namespace, seen.name, gate(seen))
        return
    host = kube.get_host(seen.namespace, seen.name)  # events are hints: re-read (Gone -> 204)
    pipeline.reconcile(kube, host, settings)


def worth_reading(seen: BareMetalHost) -> bool:
    """Pure, on the event's copy: paused for us, slipped past the pause, or lendable to CAPM3.
    Every other host (a released one CAPM3 has not taken, someone else's pause) costs no read."""
    if lifecycle.done(seen):
        return False
    return gate(seen).ours or slipped.slipped(seen) or lifecycle.lendable(seen)
