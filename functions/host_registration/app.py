"""host-registration (BareMetalHost events, Resource or Reference mode: `edge.current`).

For a host paused with exactly `metal3.io/preprovisioning` and no network data name: find its
template and create one IPClaim per pool (a template without pools is rendered at once). For a
host paused for us whose name the user already set: release it once that Secret is valid, or
say why not. A host we released that CAPM3 associated with a Metal3Machine gets the IP
lifecycle step (`chain.decide.lifecycle`): our claims are lent to CAPM3's Metal3Data, never
deleted; a Metal3Data event (the optional source `eventing/components/capm3`) lends them as
soon as CAPM3 creates it. Every other host is left alone: no API call beyond the event, no
write. Whatever the event, the work is the host's one pipeline (`chain.pipeline`).
"""

from __future__ import annotations

import functools
import logging

from cloudevents.core.base import BaseCloudEvent
from flask import Flask

from dhcpless.chain import cause, pipeline
from dhcpless.keys import FunctionName
from dhcpless.kube import Kube, from_environment
from dhcpless.models import BareMetalHost
from dhcpless.models.capm3 import Metal3Data
from dhcpless.serving import edge, events
from dhcpless.serving.events import Operation
from dhcpless.serving.web import create_function_app
from dhcpless.settings import Settings

log = logging.getLogger(__name__)
NAME = FunctionName.HOST_REGISTRATION
METAL3DATA = "Metal3Data"


def create_app(kube: Kube | None = None, settings: Settings | None = None) -> Flask:
    settings = settings or Settings.from_environment()  # read once, here
    handler = functools.partial(
        handle, kube=kube or from_environment(NAME.value), settings=settings
    )
    return create_function_app(NAME, handler, settings)


def handle(cloudevent: BaseCloudEvent, kube: Kube, settings: Settings) -> None:
    """Parse once; a Metal3Data names the host it serves; a host's event names the host,
    with its own copy when it carries one (Resource mode). The pipeline reads the host (events
    are hints: a host re-created under its name has another UID, a relabelled one another
    template; Gone: 204), after the cheap exit on the event's copy, else on the host as read
    (`pipeline.worth`). An ADD is a just-added host: its claims are created without a LIST
    first (`chain.pipeline`). A delete costs nothing."""
    event = events.parse_apiserver_event(cloudevent)
    if event.ref.kind == METAL3DATA:
        on_metal3data(event, kube, settings)
        return
    if event.ref.kind != "BareMetalHost":
        raise events.InvalidEvent(f"expected a BareMetalHost or Metal3Data event: {event.ref.kind}")
    seen = None if event.object is None else edge.hint(event, BareMetalHost)
    key = (
        (seen.namespace, seen.name) if seen else (event.ref.namespace or "default", event.ref.name)
    )
    if event.operation is Operation.DELETE:
        log.info("host %s/%s: deleted, nothing to do", *key)
        return
    added = event.operation is Operation.ADD
    pipeline.reconcile(kube, key, cause.HostChanged(added=added, seen=seen), settings)


def on_metal3data(event: events.ApiServerEvent, kube: Kube, settings: Settings) -> None:
    """CAPM3 made the Metal3Data of a Metal3Machine: lend our claims of the host it serves
    at once (`chain.decide.lifecycle`), not on the host's next event or resync tick; the
    pipeline finds the host (`gather.concerned`)."""
    data = edge.hint(event, Metal3Data)
    namespace = data.metadata.namespace or "default"
    if data.metadata.deletion_timestamp or not data.spec.claim.name:
        log.info(
            "Metal3Data %s/%s: going or unclaimed, nothing to do", namespace, data.metadata.name
        )
        return
    pipeline.run(kube, cause.Metal3DataMade(namespace, data.spec.claim.name), settings)
