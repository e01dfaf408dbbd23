"""The faults a scenario world runs under: `dhcpless demo --chaos`'s, and one of its own.

Exists apart from `world_run` to keep each small. `chaos_world` and `arm` apply
`sandbox.chaos` as the chaos demo does (events dropped, duplicated, reordered and delayed; 5xx
and 409 on the functions' requests; function processes killed; IPAM outages; event-source
restarts). `holding_releases` lets a scenario act between the Secret's write and the release.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from dhcpless_sandbox.apiserver.rbac import SERVICE_ACCOUNT_PREFIX
from dhcpless_sandbox.apiserver.request import RequestInfo
from dhcpless_sandbox.apiserver.status import ApiError
from dhcpless_sandbox.runtime.chaos import Chaos
from dhcpless_sandbox.runtime.runner import FunctionService, WSGIApp
from dhcpless_sandbox.runtime.world import World
from dhcpless_sandbox.runtime.world_settings import WorldSettings
from dhcpless_sandbox.standins.ramdisk import GleanMode

Fault = Callable[[RequestInfo], ApiError | None]


def chaos_world(chaos: Chaos | None, namespace: str, **overrides: Any) -> World:
    """A world for `namespace`; with `chaos`, its event faults on the source and broker.
    `overrides`: other `WorldSettings` (bounded watches, a longer resync period)."""
    settings = WorldSettings(
        namespace=namespace, resync_seconds=0.5, idle_seconds=1.0, glean_mode=GleanMode.IN_PROCESS,
        identities=True,  # the functions call as themselves: fault hooks tell them apart
    )  # fmt: skip
    settings = replace(settings, **overrides)
    if chaos is not None:
        faults = chaos.settings.faults()
        settings = replace(settings, faults=faults, ipam_delay=0.002)
    world = World(settings)
    if chaos is not None:
        world.broker.publish = chaos.delaying(world.broker.publish)  # type: ignore[method-assign]
    return world


def arm(world: World, chaos: Chaos) -> None:
    """After `start`: API faults, function kills, IPAM outages and source restarts."""
    world.sandbox.fault = chaos.api_fault
    for service in world.services.values():
        service.wrap_app(functools.partial(_killing, chaos, service))
    if chaos.settings.slow_function:
        world.services[chaos.settings.slow_function].wrap_app(chaos.slowing)
    chaos.run_schedules(world.ipam, world.restart_event_source)


def _killing(chaos: Chaos, service: FunctionService, factory: Callable[[], WSGIApp]) -> Any:
    return chaos.killing(service, factory)


def holding_releases(gate: threading.Event, then: Fault | None) -> Fault:
    """Until `gate` opens, every function's write to a BareMetalHost (the release) fails
    with 503 (a transient error: retried); everything else passes to `then` (chaos)."""

    def fault(info: RequestInfo) -> ApiError | None:
        ours = info.identity.startswith(SERVICE_ACCOUNT_PREFIX)
        writes = info.verb in ("update", "patch") and info.resource == "baremetalhosts"
        if ours and writes and not gate.is_set():
            return ApiError(503, "ServiceUnavailable", "held by the scenario")
        return then(info) if then is not None else None

    return fault
