"""The embedded world: sandbox API server, IPAM, BMO, event sources, broker, functions, resync.

Wired as `eventing/` wires a cluster (see `wiring`): three ApiServerSources send to one Broker;
one Trigger per function delivers over HTTP to the functions, which scale to zero between
bursts; a PingSource stand-in sends the periodic resync ping. Functions reach the API through
the official client, exactly as they would in a pod. The wiring names are re-exported here.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from kubernetes import client

from dhcpless.crds import crd_files
from dhcpless.keys import FunctionName
from dhcpless.sandbox.apiserver import SandboxServer
from dhcpless.sandbox.bmo import BMOController, GleanMode
from dhcpless.sandbox.broker import Broker, Delivery, Trigger, trigger_filter
from dhcpless.sandbox.dead_letters import DeadLetters
from dhcpless.sandbox.eventsource import ApiServerSource, Faults
from dhcpless.sandbox.ipam import IPAMController
from dhcpless.sandbox.periodic import Periodic
from dhcpless.sandbox.runner import FunctionService, Reaper
from dhcpless.sandbox.wiring import (
    BROKER,
    DELIVERY,
    OURS,
    PING_SOURCE,
    PING_TYPE,
    SOURCES,
    TRIGGER_FILTERS,
    function_factory,
    ping_event,
)

__all__ = ["Counters", "DeadLetters", "World", "WorldSettings"]
__all__ += ["BROKER", "DELIVERY", "OURS", "PING_SOURCE", "PING_TYPE", "SOURCES", "TRIGGER_FILTERS"]
__all__ += ["function_factory"]


@dataclass(frozen=True)
class WorldSettings:
    """Knobs for demos and tests; the defaults suit an interactive demo."""

    port: int = 0
    idle_seconds: float = 3.0
    """Scale-to-zero window of each function."""
    resync_seconds: float = 5.0
    broker_workers: int = 8
    bmo_workers: int = 4
    glean_mode: GleanMode = GleanMode.SUBPROCESS
    faults: Faults = field(default_factory=Faults)
    ipam_delay: float = 0.0
    crd_files: tuple[Path, ...] = ()
    """Extra CRD files to load after the built-in ones (tests load the upstream CRDs)."""
    namespace: str = "demo"
    """The namespace resync lists hosts in (a deployment's: its own; the demo's: `demo`)."""


@dataclass(frozen=True)
class Counters:
    """What the demo's summary reports: API traffic, function invocations and cold starts."""

    api_requests: dict[str, int]
    invocations: dict[str, int]
    cold_starts: int
    dead_letters: int


class World:
    """Everything around the functions, in one process; `start()`, `stop()`, counters."""

    def __init__(self, settings: WorldSettings | None = None) -> None:
        self.settings = settings or WorldSettings()
        self.sandbox = SandboxServer(port=self.settings.port)
        self.broker = Broker(BROKER, workers=self.settings.broker_workers)
        self.dead_letters = DeadLetters()
        self.services: dict[str, FunctionService] = {}
        self._pinger = Periodic(self.settings.resync_seconds, self.ping, "ping")
        self._clients: list[client.ApiClient] = []
        self._lock = threading.Lock()

    def api_client(self) -> client.ApiClient:
        """A new client for one component; all are closed by `stop()`."""
        made: client.ApiClient = self.sandbox.api_client()
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
        self.ipam = IPAMController(self.api_client(), delay=self.settings.ipam_delay)
        self.bmo = BMOController(
            self.api_client(),
            glean_mode=self.settings.glean_mode,
            workers=self.settings.bmo_workers,
        )
        self._wire_functions()
        self.source = self._new_source()
        for part in (self.ipam, self.bmo, self.source, self.reaper):
            part.start()
        self._pinger.start()

    def stop(self) -> None:
        self._pinger.stop()
        for part in (self.source, self.bmo, self.ipam):
            part.stop()
        self.broker.stop()
        self.reaper.stop()
        self.sandbox.stop()
        for made in self._clients:
            cast(Any, made).close()

    def restart_event_source(self, between: Callable[[], None] | None = None) -> None:
        """Stop the sources (events are lost), run `between`, start fresh (no replay)."""
        self.source.stop()
        if between is not None:
            between()
        self.source = self._new_source()
        self.source.start()

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
            factory = function_factory(name, self.api_client, self.settings.namespace)
            service = FunctionService(name.value, factory, idle)
            self.services[name.value] = service
            delivery = Delivery.from_spec(DELIVERY, dead_letter=dead)
            spec = {"filters": filters}
            self.broker.add_trigger(Trigger(name.value, service, trigger_filter(spec), delivery))
        self.reaper = Reaper(list(self.services.values()), period=max(idle / 4, 0.05))

    def _new_source(self) -> ApiServerSource:
        return ApiServerSource(
            self.api_client(),
            SOURCES,
            self.broker.publish,
            source=self.sandbox.url,
            faults=self.settings.faults,
        )
