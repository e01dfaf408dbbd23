"""resync (PingSource events, `dev.knative.sources.ping`).

The ApiServerSource does not replay after a restart and Knative drops events after their last
retry, so every tick LISTs BareMetalHosts once and re-drives each host paused for us through
the same decision code the other functions use: claims, render, release. Idempotent acts make
a host that is already further along cost only reads.
"""

from __future__ import annotations

import functools
import logging

from cloudevents.core.base import BaseCloudEvent
from dhcpless import events
from dhcpless.chain import decide as chain_decide
from dhcpless.chain import lookup, state
from dhcpless.chain.act import act
from dhcpless.chain.gate import Gate, gate, secret_name
from dhcpless.errors import DhcplessError
from dhcpless.keys import FunctionName
from dhcpless.kube import Kube, from_environment
from dhcpless.models import BareMetalHost
from dhcpless.web import Settings, create_function_app
from flask import Flask

log = logging.getLogger(__name__)
NAME = FunctionName.RESYNC


def create_app(kube: Kube | None = None, settings: Settings | None = None) -> Flask:
    settings = settings or Settings()
    handler = functools.partial(handle, kube=kube or from_environment(), settings=settings)
    return create_function_app(NAME, handler, settings)


def handle(cloudevent: BaseCloudEvent, kube: Kube, settings: Settings) -> None:
    events.require_ping(cloudevent)
    hosts = [h for h in kube.list_hosts() if gate(h).ours]
    log.info("resync: %d host(s) paused for pre-provisioning", len(hosts))
    for host in hosts:
        try:
            reconcile(kube, host, settings)
        except DhcplessError as err:  # one host's trouble must not stop the rest
            log.warning("resync host %s/%s: %s", host.namespace, host.name, err.reason)


def reconcile(kube: Kube, host: BareMetalHost, settings: Settings) -> None:
    """Registration, then fulfilment, then release, each from freshly read state."""
    act(state.decide_registration(state.gather_registration(kube, host)), kube, settings, host)
    if gate(host) is not Gate.WAITING:
        return
    current = state.gather_fulfilment(kube, host)
    if current is not None:
        act(state.decide_fulfilment(current), kube, settings, host)
    secret = lookup.secret_or_none(kube, host.namespace, secret_name(host))
    if secret is not None:
        fresh = kube.get_host(host.namespace, host.name)
        act(chain_decide.decide_release(fresh, secret), kube, settings, fresh)
