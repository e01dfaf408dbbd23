"""ipclaim-fulfilment (IPClaim events, Resource mode).

Only claims we created (our labels) matter. When every pool's claim of the host has
`status.address`, read the IPAddresses, render exactly as CAPM3 does, and create the Secret
`<host>-preprov-networkdata` (once: an existing different Secret is reported, not replaced).
A claim with `status.errorMessage` becomes a Warning Event quoting it; the host stays paused.
"""

from __future__ import annotations

import functools
import logging

from cloudevents.core.base import BaseCloudEvent
from dhcpless import keys
from dhcpless.chain import edge, state
from dhcpless.chain.act import act
from dhcpless.chain.decide import Actions
from dhcpless.events import Operation
from dhcpless.keys import FunctionName
from dhcpless.kube import Kube, from_environment
from dhcpless.models import IPClaim
from dhcpless.web import Settings, create_function_app
from flask import Flask

log = logging.getLogger(__name__)
NAME = FunctionName.IPCLAIM_FULFILMENT


def create_app(kube: Kube | None = None, settings: Settings | None = None) -> Flask:
    settings = settings or Settings()
    handler = functools.partial(handle, kube=kube or from_environment(), settings=settings)
    return create_function_app(NAME, handler, settings)


def handle(cloudevent: BaseCloudEvent, kube: Kube, settings: Settings) -> None:
    event = edge.event_about(cloudevent, "IPClaim")
    claim = edge.hint(event, IPClaim)
    owner = host_of(claim)
    if event.operation is Operation.DELETE or owner is None:
        log.info("IPClaim %s/%s: not ours or deleted, nothing to do", *_where(claim))
        return
    host = kube.get_host(*owner)  # Gone -> 204: the host is not there any more
    current = state.gather_fulfilment(kube, host)
    if current is not None:
        act(decide(current), kube, settings, host)


def host_of(claim: IPClaim) -> tuple[str, str] | None:
    """(namespace, name) of the host a claim of ours serves, from its labels."""
    labels = claim.metadata.labels
    if labels.get(keys.MANAGED_BY_LABEL) != keys.MANAGED_BY_VALUE or keys.HOST_LABEL not in labels:
        return None
    namespace = labels.get(keys.HOST_NAMESPACE_LABEL) or claim.metadata.namespace or "default"
    return namespace, labels[keys.HOST_LABEL]


def decide(current: state.FulfilmentState) -> Actions:
    """Pure: see `dhcpless.chain.state.decide_fulfilment`."""
    return state.decide_fulfilment(current)


def _where(claim: IPClaim) -> tuple[str, str]:
    return claim.metadata.namespace or "default", claim.metadata.name
