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

from dhcpless.chain import cause, edge, pipeline
from dhcpless.chain.decide import corner, lifecycle, repair, slipped
from dhcpless.chain.gate import gate
from dhcpless.keys import FunctionName
from dhcpless.kube import Kube, from_environment
from dhcpless.models import BareMetalHost
from dhcpless.models.capm3 import Metal3Data
from dhcpless.serving import events
from dhcpless.serving.events import Operation
from dhcpless.serving.web import Settings, create_function_app

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
    """Parse once; a Metal3Data finds its host; cheap exits on the event's object (no read),
    then the pipeline on the host as read: events are hints, so a Resource-mode copy is read
    again (a host re-created under its name has another UID, a relabelled one another
    template; Gone: 204); a Reference-mode event's host was just read (`edge.current`). An
    ADD is a `fresh` host: its claims are created without a LIST first (`chain.pipeline`)."""
    event = events.parse_apiserver_event(cloudevent)
    if event.ref.kind == METAL3DATA:
        on_metal3data(event, kube, settings)
        return
    if event.ref.kind != "BareMetalHost":
        raise events.InvalidEvent(f"expected a BareMetalHost or Metal3Data event: {event.ref.kind}")
    seen = edge.current(event, BareMetalHost, kube.get_host, delete_needs_object=False)
    if event.operation is Operation.DELETE or not worth_reading(seen):
        log.info("host %s/%s: %s, nothing to do", seen.namespace, seen.name, gate(seen))
        return
    host = seen if event.object is None else kube.get_host(seen.namespace, seen.name)
    pipeline.reconcile(
        kube, host, cause.HostChanged(added=event.operation is Operation.ADD), settings
    )


def on_metal3data(event: events.ApiServerEvent, kube: Kube, settings: Settings) -> None:
    """CAPM3 made the Metal3Data of a Metal3Machine: lend our claims of the host it serves
    at once (`chain.decide.lifecycle`), not on the host's next event or resync tick. The host
    is the one whose `spec.consumerRef` names the Metal3Machine the Metal3Data's claim is
    named after (CAPM3 `baremetal/metal3machine_manager.go` `AssociateM3Metadata` names the
    Metal3DataClaim after the Metal3Machine): one LIST of the namespace's hosts."""
    data = edge.hint(event, Metal3Data)
    namespace = data.metadata.namespace or "default"
    if data.metadata.deletion_timestamp or not data.spec.claim.name:
        log.info(
            "Metal3Data %s/%s: going or unclaimed, nothing to do", namespace, data.metadata.name
        )
        return
    for host in kube.list_hosts(namespace):
        if lifecycle.borrower_name(host) == data.spec.claim.name and lifecycle.lendable(host):
            pipeline.reconcile(kube, host, cause.Metal3DataMade(data.spec.claim.name), settings)


def worth_reading(seen: BareMetalHost) -> bool:
    """Pure, on the event's copy: paused for us, slipped past the pause, lendable to CAPM3, or
    released and not registering, maybe for want of our Secret (`chain.decide.repair`), or
    paused with a value that only looks like ours (`chain.decide.corner`). Every other host (a
    released one CAPM3 has not taken, someone else's pause) costs no read. A done host's
    updates are not sent to us (`chain.decide.quiet`): its lost Secret is repaired by resync's
    tick; one that reaches us anyway is repaired at once."""
    if lifecycle.done(seen):
        return repair.wanted(seen)
    return (
        gate(seen).ours
        or slipped.slipped(seen)
        or lifecycle.lendable(seen)
        or repair.wanted(seen)
        or corner.unclear_pause(seen) is not None
    )
