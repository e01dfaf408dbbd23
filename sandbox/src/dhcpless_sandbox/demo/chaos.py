"""`dhcpless demo --chaos`: the demo under every fault at once, judged by an independent observer.

The inventory is the demo's plus three hosts that are not ours to change (paused by CAPM3, paused
by a user, and one whose Secret name a user set), so the foreign-object counters can fail. Once
every demo host is `available`, half of them are deleted and their claims, addresses and Secrets
must disappear. Exit status 1 when a host is stranded or any violation counter is above zero.
"""

from __future__ import annotations

import base64
import functools
import json
import sys
import time
from collections.abc import Callable
from typing import Any

from kubernetes import client

from dhcpless import keys
from dhcpless_sandbox.controllers.custom_objects import CustomObjects
from dhcpless_sandbox.demo.inventory import NAMESPACE, create, host, inventory
from dhcpless_sandbox.demo.report import HostRow, Progress, observe, print_summary, report
from dhcpless_sandbox.observe.observer import Observer
from dhcpless_sandbox.observe.stall_watch import StallWatch
from dhcpless_sandbox.observe.wire import WireWatch, bmo_machines
from dhcpless_sandbox.runtime.chaos import Chaos, ChaosSettings
from dhcpless_sandbox.runtime.runner import FunctionService, WSGIApp
from dhcpless_sandbox.runtime.world import World
from dhcpless_sandbox.runtime.world_settings import WorldSettings

_POLL = 1.0
"""Seconds between progress polls: a 300-host run polled 4 times a second, two LISTs of 300
objects each, in the process the chain shares (1 s adds at most 1 s to `seconds`)."""
USER_SECRET = "user-netdata"


def foreign_hosts(first_index: int) -> list[dict[str, Any]]:
    """Hosts the chain must leave exactly as they are (their pause, their Secret name)."""
    capm3, user, named = (host(first_index + i) for i in range(3))
    capm3["metadata"]["name"], user["metadata"]["name"] = "foreign-capm3", "foreign-user"
    capm3["metadata"]["annotations"][keys.PAUSED_ANNOTATION] = keys.CAPM3_PAUSE
    user["metadata"]["annotations"][keys.PAUSED_ANNOTATION] = "ops.example.com/maintenance"
    named["metadata"]["name"] = "user-named"
    named["spec"]["preprovisioningNetworkDataName"] = USER_SECRET
    return [capm3, user, named]


def _user_secret(mac: str) -> client.V1Secret:
    """A user's own, valid network data (DHCP on the boot NIC): the host may be released, but
    its Secret name must never change."""
    document = {
        "links": [{"id": "eno1", "type": "phy", "ethernet_mac_address": mac}],
        "networks": [{"id": "dhcp", "type": "ipv4_dhcp", "link": "eno1"}],
        "services": [],
    }
    data: dict[str, bytes | str] = {
        keys.NETWORK_DATA_KEY: base64.b64encode(json.dumps(document).encode()).decode()
    }
    return client.V1Secret(metadata=client.V1ObjectMeta(name=USER_SECRET), data=data)


def _world(chaos: Chaos) -> World:
    settings = chaos.settings
    world = World(
        WorldSettings(
            faults=settings.faults(),
            identities=True,
            ipam_delay=settings.ipam_delay,
            resync_seconds=2.0,
            idle_seconds=2.0,
        )
    )
    world.broker.publish = chaos.delaying(world.broker.publish)  # type: ignore[method-assign]
    return world


def _arm(world: World, chaos: Chaos) -> None:
    """After `start`: the API fault hook and the process killer on every function."""
    world.sandbox.fault = chaos.api_fault
    for service in world.services.values():
        service.wrap_app(functools.partial(_killing, chaos, service))


def _killing(chaos: Chaos, service: FunctionService, factory: Callable[[], WSGIApp]) -> Any:
    return chaos.killing(service, factory)


class _SourceTally:
    """Event faults summed over every event-source incarnation (a restart starts a new one)."""

    def __init__(self, world: World, chaos: Chaos) -> None:
        self.world, self.chaos = world, chaos

    def restart(self) -> None:
        self.add()
        self.world.restart_event_source()

    def add(self) -> None:
        faults = self.world.source._faults
        self.chaos.count("event_dropped", faults.dropped)
        self.chaos.count("event_duplicated", faults.duplicated)
        self.chaos.count("event_reordered", faults.reordered)


def _wait(api: client.ApiClient, names: set[str], deadline: float) -> list[HostRow]:
    progress, started = Progress(sys.stderr), time.monotonic()
    while True:
        rows = [r for r in observe(api, addresses=False) if r.name in names]
        seconds = time.monotonic() - started
        done = len(rows) == len(names) and all(r.state == "available" for r in rows)
        if done or seconds >= deadline:
            progress.show(rows, seconds, final=True)
            return [r for r in observe(api) if r.name in names]  # with their IPs
        progress.show(rows, seconds)
        time.sleep(_POLL)


def _delete_half(api: client.ApiClient, rows: list[HostRow], observer: Observer) -> tuple[int, int]:
    """Delete every other demo host; (deleted, objects of theirs still there after a while)."""
    gone = [r.name for r in rows[::2]]
    hosts = CustomObjects(api, keys.BMO_GROUP, keys.BMO_VERSION)
    for name in gone:
        hosts.delete("baremetalhosts", NAMESPACE, name)
    deadline = time.monotonic() + 30 + len(gone) * 0.1
    while (left := observer.leaked(gone)) and time.monotonic() < deadline:
        time.sleep(_POLL)
    return len(gone), left


def run_chaos_demo(
    hosts: int, seed: int, json_output: bool, *, settings: ChaosSettings | None = None
) -> int:
    """The chaos run; 0 only when every demo host is available and every counter is 0."""
    chaos = Chaos(settings or ChaosSettings(seed=seed))
    world, started = _world(chaos), time.monotonic()
    world.start()
    try:
        _arm(world, chaos)
        summary = _run(world, chaos, hosts, started)
    finally:
        chaos.stop()
        world.broker.wait_idle(15)  # retries in flight finish before the API goes away
        world.stop()
    if json_output:
        print(json.dumps(summary, sort_keys=True))
    else:
        print_summary(summary, sys.stdout)
    bad = summary["stranded"] or any(summary[k] for k in _VIOLATIONS)
    return 1 if bad else 0


def stall_bound(hosts: int) -> float:
    """Seconds a host may stay paused for us without a Warning before it counts as a silent
    stall: the time the demo gives every host to become available (`_wait`), since a batch of
    N hosts under chaos is served in about that time (a fixed 120 s counted 51 of 300 hosts
    that were only queued, seed 1)."""
    return 60.0 + hosts * 0.4


_VIOLATIONS = (
    "double_allocations",
    "leaked_objects",
    "foreign_pauses_removed",
    "overwritten_network_data_names",
    "unpaused_without_valid_data",
    "silent_stalls",
    "duplicate_on_wire",
)


def _run(world: World, chaos: Chaos, hosts: int, started: float) -> dict[str, Any]:
    api, tally = world.api_client(), _SourceTally(world, chaos)
    objects, foreign = inventory(hosts), foreign_hosts(hosts)
    observer = Observer(api, NAMESPACE)
    observer.expect(foreign)
    observer.start()
    stalls = StallWatch(api, NAMESPACE, bound=stall_bound(hosts))  # paused, and nobody says why
    stalls.start()
    machines = bmo_machines(world.bmo.wire, NAMESPACE)
    wire = WireWatch(api, NAMESPACE, machines, live=observer.live)
    wire.start()  # what glean configured on the running ramdisks: two on one address?
    try:
        create(api, objects[:1])
        client.CoreV1Api(api).create_namespaced_secret(
            NAMESPACE, _user_secret(foreign[2]["spec"]["bootMACAddress"])
        )
        create(api, [*objects[1:], *foreign])
        chaos.run_schedules(world.ipam, tally.restart)
        names = {o["metadata"]["name"] for o in objects if o["kind"] == "BareMetalHost"}
        rows = _wait(api, names, stall_bound(hosts))
        summary = report(rows, world, time.monotonic() - started, hosts)
        deleted, leaked = _delete_half(api, rows, observer)
    finally:
        observer.stop()
        stalls.stop()
        wire.stop()
        tally.add()
    return (
        summary
        | observer.violations()
        | {
            "leaked_objects": leaked,
            "silent_stalls": stalls.count(),
            "duplicate_on_wire": wire.count(),
            "deleted_hosts": deleted,
            "foreign_hosts": len(foreign),
            "seed": chaos.settings.seed,
            "injected": dict(sorted(chaos.injected.items())),
            "seconds_total": round(time.monotonic() - started, 2),
        }
    )
