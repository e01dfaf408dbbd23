"""One small embedded world per user scenario, fault-free or under chaos, judged on exit.

What `dhcpless demo --chaos` runs, at the size of a scenario: the whole world (sandbox, IPAM,
BMO with glean, sources, broker, functions, resync), optionally every fault of `sandbox.chaos`
(events dropped, duplicated, reordered and delayed; 5xx and 409 on the functions' requests;
function processes killed; IPAM outages; event-source restarts), and the independent judges:
the `Observer` (double allocations, foreign pauses, invalid releases), the `StallWatch`
(`silent_stalls`) and the `WireWatch` (`duplicate_on_wire`, from what glean configured on
every running machine). `Run.verdict` holds their counters once the block ends.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from kubernetes import client

from dhcpless import keys
from dhcpless.keys import ProvisioningState
from dhcpless.kube.cache.informer import Informer
from dhcpless_sandbox.controllers.custom_objects import CustomObjects
from dhcpless_sandbox.demo.inventory import POOL, create, inventory
from dhcpless_sandbox.observe.observer import Observer
from dhcpless_sandbox.observe.stall_watch import StallWatch
from dhcpless_sandbox.observe.wire import WireWatch, bmo_machines
from dhcpless_sandbox.runtime.chaos import Chaos, ChaosSettings
from dhcpless_sandbox.runtime.world import World
from tests.scenarios.world_faults import arm, chaos_world, holding_releases
from tests.support.waits import eventually, seconds

NS = "scn"
Obj = dict[str, Any]
STALL_BOUND = 20.0
"""Seconds a host may stay paused for us without a Warning (quiet-machine; scaled)."""
VIOLATIONS = ("double_allocations", "foreign_pauses_removed", "overwritten_network_data_names",
              "unpaused_without_valid_data", "silent_stalls", "duplicate_on_wire")  # fmt: skip
CLEAN = dict.fromkeys(VIOLATIONS, 0)


@dataclass
class Run:
    """A running scenario world and its judges."""

    world: World
    api: client.ApiClient
    chaos: Chaos | None
    stalls: StallWatch
    gate: threading.Event = field(default_factory=threading.Event)
    """Lets the functions write hosts again (`scenario_world(hold=True)`)."""
    verdict: dict[str, int] = field(default_factory=dict)
    injected: dict[str, int] = field(default_factory=dict)

    @property
    def hosts(self) -> CustomObjects:
        return CustomObjects(self.api, keys.BMO_GROUP, keys.BMO_VERSION)

    @property
    def ipam(self) -> CustomObjects:
        return CustomObjects(self.api, keys.IPAM_GROUP, keys.IPAM_VERSION)

    def host(self, name: str) -> Obj | None:
        return self.hosts.get("baremetalhosts", NS, name)

    def state(self, name: str) -> str:
        found = self.host(name) or {}
        return str(((found.get("status") or {}).get("provisioning") or {}).get("state", ""))

    def reach(self, names: list[str], state: ProvisioningState, timeout: float = 60) -> None:
        """Wait until every host in `names` is in `state`."""

        def states() -> bool:
            return all(self.state(n) == state.value for n in names)

        eventually(states, timeout, f"{names} {state.value}: {[self.state(n) for n in names]}")

    def address(self, host: str, pool: str = POOL) -> str | None:
        """The address IPAM gave the host's claim `<host>-<pool>` (None without one)."""
        claim = self.ipam.get("ipclaims", NS, f"{host}-{pool}") or {}
        ref = (claim.get("status") or {}).get("address") or {}
        found = self.ipam.get("ipaddresses", NS, ref["name"]) if ref.get("name") else None
        return str(found["spec"]["address"]) if found else None

    def owns_its_claim(self, host: str, pool: str = POOL) -> bool:
        """The claim `<host>-<pool>` carries our labels and the live host's UID."""
        live, claim = self.host(host), self.ipam.get("ipclaims", NS, f"{host}-{pool}")
        if live is None or claim is None:
            return False
        uids = [o["uid"] for o in claim["metadata"].get("ownerReferences") or []]
        labels = claim["metadata"].get("labels") or {}
        return live["metadata"]["uid"] in uids and labels.get(keys.HOST_LABEL) == host

    def wire_of(self, host: str) -> tuple[str, ...]:
        """What the host's running machine configured (BMO's wire record)."""
        return tuple(a.split("/")[0] for a in self.world.bmo.wire.get((NS, host), ()))

    def past_the_stall_bound(self) -> None:
        """Judge the hosts waiting now as if the stall bound had passed: each must already
        carry a Warning saying why (a wait that would be a silent stall counts now)."""
        self.stalls.look(now=time.monotonic() + seconds(STALL_BOUND))

    def caches_caught_up(self) -> bool:
        """Every synced watch cache of the functions holds what the API server holds now (the
        same objects at the same resourceVersions): a template change is then one the release
        decision can see (README "Watch cache": honoured once its watch event arrived)."""
        caches = self.world._caches  # the world keeps them to stop them; read-only here
        return all(_current(self.api, i) for c in caches for i in c.informers())

    def create(self, objects: list[Obj]) -> None:
        create(self.api, objects)


def _current(api: client.ApiClient, informer: Informer) -> bool:
    """`informer` is not answering (reads go to the server) or matches a LIST now; a bounded
    one (`kube.kept.limit_for`: the most recent only) holds a current subset of it."""
    held, res = informer.items(), informer.res
    if held is None:
        return True
    listed = CustomObjects(api, res.group, res.version).list_items(res.plural, informer.namespace)
    have, now = _versions(held.values()), _versions(listed)
    if informer.limit is not None:
        return all(now.get(name) == version for name, version in have.items())
    return have == now


def _versions(objects: Iterable[Mapping[str, Any]]) -> dict[str, str]:
    return {o["metadata"]["name"]: o["metadata"]["resourceVersion"] for o in objects}


def objects(hosts: int) -> list[Obj]:
    """The demo's inventory in the scenario namespace (pool `provisioning`, template `preprov`),
    without the Namespace (the world makes it)."""
    return inventory(hosts, NS)[1:]


@contextmanager
def scenario_world(
    chaotic: bool,
    seed: int = 1,
    hold: bool = False,
    chaos_settings: ChaosSettings | None = None,
    **overrides: Any,
) -> Iterator[Run]:
    """A world with the judges watching `NS`; on exit `run.verdict` has their counters.
    `hold`: no function can release a host (nor write one) until `run.gate` is set.
    `chaos_settings` replaces the chaos demo's; `overrides` are `WorldSettings`."""
    chaos = Chaos(chaos_settings or ChaosSettings(seed=seed)) if chaotic else None
    world = chaos_world(chaos, NS, **overrides)
    world.start()
    gate = threading.Event()
    if not hold:
        gate.set()
    api = world.api_client()
    create(api, [{"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": NS}}])
    observer, stalls = Observer(api, NS), StallWatch(api, NS, bound=seconds(STALL_BOUND))
    wire = WireWatch(api, NS, bmo_machines(world.bmo.wire, NS), live=observer.live)
    for judge in (observer, stalls, wire):
        judge.start()
    if chaos is not None:
        arm(world, chaos)
    world.sandbox.fault = holding_releases(gate, world.sandbox.fault)
    run = Run(world, api, chaos, stalls, gate)
    try:
        yield run
    finally:
        gate.set()
        if chaos is not None:
            chaos.stop()
        for judge in (observer, stalls, wire):
            judge.stop()
        world.broker.wait_idle(15)
        world.stop()
    run.injected = {k: n for k, n in (chaos.injected if chaos else {}).items() if n}
    run.verdict = observer.violations() | {
        "silent_stalls": stalls.count(), "duplicate_on_wire": wire.count()
    }  # fmt: skip


def judged(run: Run) -> None:
    """Every judge's counter is 0, and a chaos run did meet faults (not a quiet run)."""
    assert run.verdict == CLEAN
    assert run.chaos is None or run.injected, "a chaos run in which no fault was injected"
