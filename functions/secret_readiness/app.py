"""secret-readiness (Secret events, Reference mode: only a reference arrives; the pipeline GETs it).

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

from dhcpless.chain import pipeline
from dhcpless.chain.cause import SecretWritten
from dhcpless.keys import FunctionName
from dhcpless.kube import Kube, from_environment
from dhcpless.serving import edge
from dhcpless.serving.events import Operation
from dhcpless.serving.web import create_function_app
from dhcpless.settings import Settings

log = logging.getLogger(__name__)
NAME = FunctionName.SECRET_READINESS


def create_app(kube: Kube | None = None, settings: Settings | None = None) -> Flask:
    settings = settings or Settings.from_environment()  # read once, here
    handler = functools.partial(
        handle, kube=kube or from_environment(NAME.value), settings=settings
    )
    return create_function_app(NAME, handler, settings)


def handle(cloudevent: BaseCloudEvent, kube: Kube, settings: Settings) -> None:
    """Parse once; the pipeline reads the Secret and the hosts using it (`gather.concerned`)."""
    event = edge.event_about(cloudevent, "Secret")
    namespace, name = event.ref.namespace or "default", event.ref.name
    if event.operation == Operation.DELETE:
        log.info("Secret %s/%s: gone or no network data, nothing to do", namespace, name)
        return
    pipeline.run(kube, SecretWritten(namespace, name), settings)
