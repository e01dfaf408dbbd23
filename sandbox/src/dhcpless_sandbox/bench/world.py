"""The bench's world: the embedded `World`, with each function a real gunicorn process.

Exists apart from `World` because only the bench needs what processes give (cold start from
process start, memory per function) and what tokens give (the audit names each function, so
its reads and writes are counted apart from IPAM's and BMO's). Everything else — sources,
Broker, Triggers, delivery, stand-ins — is the same wiring the demo and tests use.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from dhcpless import registry
from dhcpless.keys import NAMESPACE_ENV, FunctionName
from dhcpless_sandbox.bench.cost import (
    ACCESS_ARGS,
    cpu_seconds,
    cpu_snapshot,
    handler_seconds,
    log_offsets,
)
from dhcpless_sandbox.bench.deliveries import CountingDispatcher
from dhcpless_sandbox.controllers.periodic import Periodic
from dhcpless_sandbox.eventing.delivery import Delivery
from dhcpless_sandbox.eventing.filters import trigger_filter
from dhcpless_sandbox.eventing.triggers import Trigger
from dhcpless_sandbox.runtime.processes import ProcessFunctionService, ProcessSpec
from dhcpless_sandbox.runtime.runner import FunctionService, Reaper
from dhcpless_sandbox.runtime.wiring import DELIVERY, TRIGGER_FILTERS, one_write_connections
from dhcpless_sandbox.runtime.world import World
from dhcpless_sandbox.runtime.world_settings import WorldSettings


@dataclass(frozen=True)
class Costs:
    """One snapshot of what the functions spent; subtract two with `since`."""

    logs: dict[Path, int]
    cpu: dict[int, float]

    def since(self, earlier: Costs) -> tuple[float, float]:
        """(handler seconds, CPU seconds) spent between `earlier` and this snapshot."""
        return handler_seconds(earlier.logs, self.logs), cpu_seconds(earlier.cpu, self.cpu)


def token(function: str) -> str:
    return f"bench-{function}-token"


def app_of(function: str) -> str:
    """The gunicorn app-factory string, as deploy/gunicorn_conf.py builds it."""
    return registry.function(function).factory


class ProcessWorld(World):
    """`World` whose functions run as processes under their own identities."""

    def __init__(self, settings: WorldSettings, workdir: Path) -> None:
        super().__init__(settings)
        self.workdir = workdir
        workers, namespace = settings.broker_workers, self.broker.namespace
        self.deliveries = CountingDispatcher(workers, namespace, one_write_connections)
        self.broker._dispatcher = self.deliveries  # each attempt counted by cause
        self.processes: dict[FunctionName, ProcessFunctionService] = {}

    def spec(self, function: str) -> ProcessSpec:
        """How to start `function` against this sandbox, as itself (kubeconfig with its token)."""
        self.sandbox.add_token(token(function), function)
        kubeconfig = self.sandbox.write_kubeconfig(
            self.workdir / f"{function}.kubeconfig", token(function)
        )
        env = {"KUBECONFIG": str(kubeconfig), NAMESPACE_ENV: self.settings.namespace}
        env["GUNICORN_CMD_ARGS"] = ACCESS_ARGS.format(path=self.access_log(function))
        return ProcessSpec(app_of(function), env, self.workdir / f"{function}.log")

    def access_log(self, function: str) -> Path:
        """Where `function`'s gunicorn writes one request time per line (`bench_cost`)."""
        return self.workdir / f"{function}.access"

    def costs(self) -> Costs:
        """Where the functions' access logs end and the CPU their processes used, now."""
        logs = log_offsets(self.access_log(f.value) for f in self.processes)
        pids = [pid for service in self.processes.values() for pid in service.pids]
        return Costs(logs, cpu_snapshot(pids))

    def rephase_resync(self) -> None:
        """Restart the resync schedule now, so the batch begins one full period before a tick.

        A schedule's phase is arbitrary (a PingSource's cron runs on the wall clock); anchored
        at the world's start, the tick fell inside a 1,000-host batch once the cold starts
        ahead of it grew, and resync re-drove every host still in flight: the batch's counts
        then measured the tick, not the chain (README "Performance")."""
        self._pinger.stop()
        self._pinger = Periodic(self.settings.resync_seconds, self.ping, "ping")
        self._pinger.start()

    def _wire_functions(self) -> None:
        idle = self.settings.idle_seconds
        dead = FunctionService("dead-letter", self.dead_letters.app, idle)
        self.services["dead-letter"] = dead
        for name, filters in TRIGGER_FILTERS.items():
            service = ProcessFunctionService(name.value, self.spec(name.value), idle)
            self.processes[name] = service
            self.services[name.value] = service  # type: ignore[assignment]
            delivery = Delivery.from_spec(DELIVERY, dead_letter=dead)
            trigger = Trigger(name.value, service, trigger_filter({"filters": filters}), delivery)
            self.broker.add_trigger(trigger)
        services = list(self.services.values())
        self.reaper = Reaper(services, period=max(idle / 4, 0.05))
