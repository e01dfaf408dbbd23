"""The embedded world: sandbox API server, IPAM, BMO, event sources, broker, functions, resync.

Wired as `eventing/` wires a cluster (see `wiring`): three ApiServerSources send to one Broker;
one Trigger per function delivers over HTTP to the functions, which scale to zero between
bursts; a PingSource stand-in sends the periodic resync ping. Functions reach the API through
the official client, exactly as they would in a pod. The wiring is `wiring`'s, the knobs
`world_settings`'.
"""

from __future__ import annotations

import functools
import socket
import threading
from collections.abc import Callable
from dataclasses import replace
from typing import Any, cast

from kubernetes import client
from urllib3.connection import HTTPConnection

from dhcpless.crds import crd_files
from dhcpless.keys import FunctionName
from dhcpless.kube.events import posting
from dhcpless_sandbox.apiserver import rbac
from dhcpless_sandbox.apiserver.http_handler import WATCH_SEND_BUFFER
from dhcpless_sandbox.apiserver.rbac import Authorizer
from dhcpless_sandbox.apiserver.server import SandboxServer
from dhcpless_sandbox.controllers.periodic import Periodic
from dhcpless_sandbox.eventing.broker import Broker
from dhcpless_sandbox.eventing.dead_letters import DeadLetters
from dhcpless_sandbox.eventing.delivery import Delivery
from dhcpless_sandbox.eventing.eventsource import ApiServerSource, SourceResource
from dhcpless_sandbox.eventing.filters import trigger_filter
from dhcpless_sandbox.eventing.triggers import Trigger
from dhcpless_sandbox.runtime.runner import FunctionService, Reaper
from dhcpless_sandbox.runtime.wiring import (
    BROKER,
    DELIVERY,
    SOURCES,
    TRIGGER_FILTERS,
    function_factory,
    one_write_connections,
    ping_event,
)
from dhcpless_sandbox.runtime.world_settings import Counters, WorldSettings
from dhcpless_sandbox.standins import ipam_webhook
from dhcpless_sandbox.standins.bmo import BMOController
from dhcpless_sandbox.standins.capi_ipam import CapiIPAMController
from dhcpless_sandbox.standins.ipam import IPAMController

SOURCE_SYNC_SECONDS = 60.0
"""How long `start` waits for the event source's first LIST and watch (a loaded machine)."""


class World:
    """Everything around the functions, in one process; `start()`, `stop()`, counters."""

    def __init__(self, settings: WorldSettings | None = None) -> None:
        self.settings = settings or WorldSettings()
        self.sandbox = SandboxServer(port=self.settings.port, history=self.settings.watch_history)
        self.sandbox.store.watch_limit = self.settings.watch_limit
        workers, mode = self.settings.broker_workers, self.settings.broker_mode
        self.broker = Broker(BROKER, workers=workers, mode=mode, connections=one_write_connections)
        self.dead_letters = DeadLetters()
        self.services: dict[str, FunctionService] = {}
        self._pinger = Periodic(self.settings.resync_seconds, self.ping, "ping")
        self._clients: list[client.ApiClient] = []
        self._caches: list[Any] = []  # the functions' watch caches (`wiring.KUBE_CACHE`)
        self._lock = threading.Lock()
        self._gaps = 0

    def api_client(self, token: str | None = None) -> client.ApiClient:
        """A new client for one component (as `token`'s identity); all closed by `stop()`."""
        made: client.ApiClient = self.sandbox.api_client(token)
        with self._lock:
            self._clients.append(made)
        return made

    def start(self) -> None:
        self.sandbox.start()
        self.sandbox.load_builtin_crds()
        for crd in crd_files():  # ours (Metal3PreprovisioningDataTemplate, CAPI IPAM kinds)
            self.sandbox.apply_crd_text(crd.read_text())
        for path in self.settings.crd_files:
            self.sandbox.apply_crd_file(path)
        self._enforce_rbac()
        ipam_webhook.install(self.sandbox.api)  # IPAM's IPPool webhook comes with IPAM
        self.ipam = IPAMController(self.api_client(), delay=self.settings.ipam_delay)
        self.capi_ipam = CapiIPAMController(self.api_client())
        self.bmo = BMOController(
            self.api_client(),
            glean_mode=self.settings.glean_mode,
            workers=self.settings.bmo_workers,
            network_data_check=self.settings.network_data_check,
        )
        self._wire_functions()
        self.source = self._new_source()
        for part in (self.ipam, self.capi_ipam, self.bmo, self.source, self.reaper):
            part.start()
        self._source_synced()
        self._pinger.start()

    def stop(self) -> None:
        self._pinger.stop()
        for part in (self.source, self.bmo, self.capi_ipam, self.ipam):
            part.stop()
        self.broker.stop()
        self.reaper.stop()
        posting.flush()  # as a function's worker does at exit (serving.exit_hooks)
        for cache in self._caches:
            cache.stop()
        self.sandbox.stop()
        for made in self._clients:
            cast(Any, made).close()

    def watch_gaps(self) -> int:
        """The event sources' re-watches answered 410 Gone, restarts included (each a gap)."""
        return self._gaps + self.source.expired

    def restart_event_source(self, between: Callable[[], None] | None = None) -> None:
        """Stop the sources (events are lost), run `between`, start fresh (no replay)."""
        self._gaps += self.source.expired
        self.source.stop()
        if between is not None:
            between()
        self.source = self._new_source()
        self.source.start()
        self._source_synced()

    def _source_synced(self) -> None:
        """Return only once the source watches: what is created before its first LIST ends
        is never an event (no replay), so a caller creating objects at once lost them."""
        if not self.source.wait_synced(SOURCE_SYNC_SECONDS):
            raise RuntimeError(f"event source not watching after {SOURCE_SYNC_SECONDS}s")

    def ping(self) -> None:
        """One PingSource event to the broker (resync)."""
        self.broker.publish(ping_event())

    def counters(self) -> Counters:
        functions = [s for s in self.services.values() if s.name in set(FunctionName)]
        return Counters(
            api_requests=dict(self.sandbox.audit.counts),
            invocations={s.name: s.invocations for s in functions},
            cold_starts=sum(s.cold_starts for s in functions),
            dead_letters=len(self.dead_letters.received),
        )

    def _wire_functions(self) -> None:
        idle = self.settings.idle_seconds
        dead = FunctionService("dead-letter", self.dead_letters.app, idle)
        self.services["dead-letter"] = dead
        for name, filters in TRIGGER_FILTERS.items():
            api = functools.partial(self.api_client, self._token(name.value))
            factory = function_factory(
                name, api, self.settings.namespace, self.settings.namespace_selector, self._caches
            )
            service = FunctionService(name.value, factory, idle)
            self.services[name.value] = service
            delivery = Delivery.from_spec(DELIVERY, dead_letter=dead)
            spec = {"filters": filters}
            self.broker.add_trigger(Trigger(name.value, service, trigger_filter(spec), delivery))
        self.reaper = Reaper(list(self.services.values()), period=max(idle / 4, 0.05))

    def _new_source(self) -> ApiServerSource:
        return ApiServerSource(
            self._source_client(),
            self._sources(),
            self.broker.publish,
            source=self.sandbox.url,
            faults=self.settings.faults,
            api_for=lambda entry: self._source_client(f"dhcpless-{entry.resource.plural}"),
            namespace_selector=self.settings.namespace_selector or None,
        )

    def _source_client(self, account: str = "") -> client.ApiClient:
        """A source's client; with bounded watches, a small receive buffer (the adapter's side
        of `apiserver.http_handler.WATCH_SEND_BUFFER`: a stalled reader is seen in few events)."""
        made = self.api_client(self._token(account) if account else None)
        if self.settings.watch_limit is not None:
            small = (socket.SOL_SOCKET, socket.SO_RCVBUF, WATCH_SEND_BUFFER)
            options = [*HTTPConnection.default_socket_options, small]
            made.rest_client.pool_manager.connection_pool_kw["socket_options"] = options
        return made

    def _sources(self) -> list[SourceResource]:
        """Under RBAC, each source watches its own namespace only, as an ApiServerSource without
        a namespaceSelector does (its Role grants no more); otherwise every namespace."""
        if not self.settings.rbac_files or self.settings.namespace_selector:
            return SOURCES
        ns = self.settings.namespace
        return [replace(s, resource=replace(s.resource, namespace=ns)) for s in SOURCES]

    def _enforce_rbac(self) -> None:
        """Install the manifests' RBAC as the authorize hook; one token per ServiceAccount."""
        self.authorizer: Authorizer | None = None
        if not self.settings.rbac_files:
            names = [*FunctionName, *(f"dhcpless-{s.resource.plural}" for s in SOURCES)]
            for name in names if self.settings.identities else ():
                identity = rbac.service_account(self.settings.namespace, name)
                self.sandbox.add_token(f"{name}-sa-token", identity)
            return
        manifests = rbac.load(self.settings.rbac_files, self.settings.namespace)
        self.authorizer = Authorizer(manifests)
        self.sandbox.authorize = self.authorizer
        for identity in rbac.service_accounts(manifests):
            self.sandbox.add_token(identity.rsplit(":", 1)[1] + "-sa-token", identity)

    def _token(self, service_account: str) -> str | None:
        """The bearer token of a ServiceAccount when RBAC is enforced (else: admin)."""
        named = self.settings.rbac_files or self.settings.identities
        return f"{service_account}-sa-token" if named else None
