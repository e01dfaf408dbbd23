"""secret-readiness (Secret events, Reference mode: only a reference arrives, so GET it).

A Secret that holds `networkData` releases the host that names it in
`spec.preprovisioningNetworkDataName` (a user's, found by a LIST of the Secret's namespace
only). A Secret under our default name reaches us only when our writer did not write it (the
source skips `keys.WRITER_RELEASES_LABEL`): anyone may forge our labels and the host's UID, so
it releases nothing here; the host gets a `SecretUnverified` Warning and the claims' path,
which renders the host's own claims, verifies it (`chain.decide.verify`). Releasing is one
conditional JSON patch (see `chain.act`). Secrets without `networkData` are ignored after the
GET; their data is never logged.
"""

from __future__ import annotations

import functools
import logging

from cloudevents.core.base import BaseCloudEvent
from flask import Flask

from dhcpless import keys, tracing
from dhcpless.chain import edge, pipeline
from dhcpless.chain.cause import SecretWritten
from dhcpless.chain.gate import Gate, gate, secret_name
from dhcpless.chain.gather.lookup import secret_or_none
from dhcpless.errors import Gone
from dhcpless.keys import FunctionName
from dhcpless.kube import Kube, from_environment
from dhcpless.models import BareMetalHost, Secret
from dhcpless.serving.events import Operation
from dhcpless.serving.web import Settings, create_function_app

log = logging.getLogger(__name__)
NAME = FunctionName.SECRET_READINESS


def create_app(kube: Kube | None = None, settings: Settings | None = None) -> Flask:
    settings = settings or Settings.from_environment()  # read once, here
    handler = functools.partial(
        handle, kube=kube or from_environment(NAME.value), settings=settings
    )
    return create_function_app(NAME, handler, settings)


def handle(cloudevent: BaseCloudEvent, kube: Kube, settings: Settings) -> None:
    event = edge.event_about(cloudevent, "Secret")
    namespace, name = event.ref.namespace or "default", event.ref.name
    secret = secret_or_none(kube, namespace, name) if event.operation != Operation.DELETE else None
    if secret is None or keys.NETWORK_DATA_KEY not in secret.data:
        log.info("Secret %s/%s: gone or no network data, nothing to do", namespace, name)
        return
    tracing.follow(secret.metadata.annotations)  # the trace of the chain that wrote it
    for host in hosts_using(kube, secret):
        if uses(host, secret):
            pipeline.reconcile(kube, host, SecretWritten(secret), settings)


def uses(host: BareMetalHost, secret: Secret) -> bool:
    """Pure, on the host as read: paused for us and using this very Secret (named, or ours by
    default name). A host naming another Secret is not this event's business."""
    state = gate(host)
    if state is Gate.NAMED:
        return host.spec.preprovisioning_network_data_name == secret.metadata.name
    return state is Gate.WAITING and secret_name(host) == secret.metadata.name


def hosts_using(kube: Kube, secret: Secret) -> list[BareMetalHost]:
    """The host named by our label (one GET), else hosts of this namespace naming the Secret."""
    namespace = secret.metadata.namespace or "default"
    owner = secret.metadata.labels.get(keys.HOST_LABEL)
    if owner and secret.metadata.labels.get(keys.MANAGED_BY_LABEL) == keys.MANAGED_BY_VALUE:
        try:
            return [kube.get_host(namespace, owner)]
        except Gone:
            return []
    named = secret.metadata.name
    return [
        h for h in kube.list_hosts(namespace) if h.spec.preprovisioning_network_data_name == named
    ]
