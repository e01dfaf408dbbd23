"""`dhcpless bench`: one batch of hosts through the whole chain, measured against its floor.

One run, in order: cold starts (`bench_coldstart`); the batch — N paused hosts created back to
back, timed to each unpause (`bench_watch`), the functions' requests counted by identity
(`bench_count`); lifecycle — until every host is `available` (claims released); at rest
(`bench_rest`) — every host's status rewritten 4 times, as BMO does for a fleet at rest; the
idle floor (`bench_floor`). The report and its keys are `bench_report`'s.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from cloudevents.core.base import BaseCloudEvent

from dhcpless.keys import FunctionName
from dhcpless_sandbox.bench import coldstart as bench_coldstart
from dhcpless_sandbox.bench import floor_live as bench_floor_live
from dhcpless_sandbox.bench import inventory as bench_inventory
from dhcpless_sandbox.bench import records, sizing
from dhcpless_sandbox.bench import report as bench_report
from dhcpless_sandbox.bench.chaos import measure_chaos
from dhcpless_sandbox.bench.count import of_identity, window
from dhcpless_sandbox.bench.deliveries import Cause
from dhcpless_sandbox.bench.floor import run_floor
from dhcpless_sandbox.bench.rest import at_rest
from dhcpless_sandbox.bench.settle import Probes, Unsettled, quiet, settle
from dhcpless_sandbox.bench.watch import UnpauseWatch
from dhcpless_sandbox.bench.world import ProcessWorld
from dhcpless_sandbox.controllers.custom_objects import CustomObjects
from dhcpless_sandbox.demo.inventory import create
from dhcpless_sandbox.eventing.delivery import BrokerMode
from dhcpless_sandbox.runtime.world_settings import WorldSettings
from dhcpless_sandbox.standins.ramdisk import GleanMode

COLD_REPEATS = 9
"""Cold starts per process at 200 hosts and more: the median of 9 resists a loaded machine."""
CHAOS_BROKEN_EVERY = 10
"""`--chaos`: every tenth host of the second batch is broken (10 %)."""
RESYNC_SECONDS = 300.0
"""As eventing/resync-schedule.yaml (every five minutes): a batch normally sees no tick."""


def run_bench(
    hosts: int,
    pools: int,
    json_output: bool,
    plot: Path | None,
    broker: str = "sync",
    chaos: bool = False,
    record: Path | None = None,
) -> int:
    """Run and print the report (JSON or a table); 0 when every host was unpaused. `record`:
    a folder to save the report in too (`bench.records`)."""
    if hosts < 1 or pools < 1:
        print("dhcpless bench: --hosts and --pools must be at least 1", file=sys.stderr)
        return 2
    mode = BrokerMode(broker)
    if chaos:
        return _chaos(hosts, mode, record)
    try:
        result = measure(hosts, pools, repeats=COLD_REPEATS if hosts >= 200 else 1, mode=mode)
    except Unsettled as error:
        print(f"dhcpless bench: {error}", file=sys.stderr)
        return 1
    if plot is not None:
        bench_report.write_plot(result, plot)
    if record is not None:
        records.record(result, record, hosts)
    print(json.dumps(result, sort_keys=True) if json_output else bench_report.table(result))
    return 0 if result["unpaused"] == hosts else 1


def _chaos(hosts: int, mode: BrokerMode, record: Path | None) -> int:
    """The chaos run (`bench_chaos`), always one JSON object; 0 when no broken host was
    unpaused and every healthy one was."""
    result = measure_chaos(hosts, CHAOS_BROKEN_EVERY, mode)
    if record is not None:
        records.record(result, record, hosts)
    print(json.dumps(result, sort_keys=True))
    healthy = result["healthy_hosts"]
    done = result["baseline_unpaused"] == result["chaos_healthy_unpaused"] == healthy
    return 0 if done and result["broken_unpaused"] == 0 else 1


def measure(
    hosts: int,
    pools: int,
    repeats: int = 1,
    mode: BrokerMode = BrokerMode.SYNC,
    paired: bool = True,
) -> dict[str, object]:
    """The whole run; the report as a plain dict (see `bench_report.KEYS`). `paired`: see
    `bench_coldstart.measure`."""
    with tempfile.TemporaryDirectory(prefix="dhcpless-bench-") as tmp:
        settings = WorldSettings(
            idle_seconds=5.0, resync_seconds=RESYNC_SECONDS, glean_mode=GleanMode.IN_PROCESS,
            bmo_workers=2, namespace=bench_inventory.NAMESPACE, broker_mode=mode,
        )  # fmt: skip
        world = ProcessWorld(settings, Path(tmp))
        world.start()
        try:
            return _phases(world, hosts, pools, repeats, paired)
        finally:
            world.stop()


def _phases(
    world: ProcessWorld, hosts: int, pools: int, repeats: int, paired: bool
) -> dict[str, object]:
    ns = bench_inventory.NAMESPACE
    specs = {f.value: world.spec(f.value) for f in FunctionName}
    floor_env = dict(specs[FunctionName.HOST_REGISTRATION.value].env)
    cold = bench_coldstart.measure(specs, lambda n: _probe(n, world), repeats, floor_env, paired)
    admin = world.api_client()
    create(admin, bench_inventory.setup(pools))
    live = bench_floor_live.for_world(world, admin, pools)
    live.start()
    idle, setup_wait = (lambda s: world.broker.wait_idle(timeout=s)), sizing.SETUP_QUIET_SECONDS
    if not quiet(lambda: _calls(world), idle, setup_wait):
        raise Unsettled(f"the setup's events were still being delivered after {setup_wait:.0f} s")
    watch = UnpauseWatch(world.sandbox, ns)
    watch.start()
    start, calls0, costs0 = world.sandbox.audit.total, _calls(world), world.costs()
    world.rephase_resync()
    registered, began, load = {}, time.monotonic(), {"batch_start": load_average()}
    live.go()
    for obj in bench_inventory.hosts(hosts):
        create(admin, [obj])
        registered[obj["metadata"]["name"]] = time.monotonic()
    watch.wait_for(hosts, timeout=sizing.unpause_seconds(hosts))
    seconds = max(watch.unpaused.values(), default=time.monotonic()) - began
    load["batch_end"] = load_average()
    handler, cpu = world.costs().since(costs0)
    floor_samples = live.stop()
    batch_end, calls1 = world.sandbox.audit.total, _calls(world)
    _settle(world, hosts, sizing.settle_seconds(hosts))
    rss = {
        f.value: max(s.sample(), s.peak_pss_mb, cold.memory.get(f.value, 0.0))
        for f, s in world.processes.items()
    }
    life_end, calls2 = world.sandbox.audit.total, _calls(world)
    at_rest(world, admin, list(registered), sizing.rest_seconds(hosts))
    idle_end, calls3 = world.sandbox.audit.total, _calls(world)
    watch.stop()
    records = world.sandbox.audit.records
    for part in (world.source, world.bmo, world.ipam):
        part.stop()
    floor = run_floor(admin, ns, list(registered), pools, bench_inventory.TEMPLATE)
    return bench_report.build(
        hosts=hosts, pools=pools, seconds=seconds, floor_seconds=floor, mode=world.broker.mode,
        to_unpause=[watch.unpaused.get(n, float("nan")) - t for n, t in registered.items()],
        batch=window(records[start:batch_end], calls1 - calls0),
        lifecycle=window(records[batch_end:life_end], calls2 - calls1),
        idle=window(records[life_end:idle_end], calls3 - calls2),
        cold=cold.seconds, cold_ratios=cold.ratio_to_floor, rss=rss,
        cold_starts_in_batch=_cold_starts(world), load=load,
        handler_seconds=handler, cpu_seconds=cpu, floor_samples=floor_samples,
        floor_requests=of_identity(
            records[start:batch_end], bench_floor_live.IDENTITY, len(floor_samples)
        ),
    )  # fmt: skip


def load_average() -> list[float]:
    """The machine's 1-, 5- and 15-minute load averages (times depend on them; counts do not)."""
    return [round(x, 2) for x in os.getloadavg()]


def _calls(world: ProcessWorld) -> Counter[Cause]:
    """Deliveries so far, by cause (subtract two for a window)."""
    return world.deliveries.counts()


def _probe(name: str, world: ProcessWorld) -> BaseCloudEvent:
    references = bench_coldstart.REFERENCES
    function = FunctionName.HOST_REGISTRATION if name in references else FunctionName(name)
    return bench_coldstart.probe(function, bench_inventory.NAMESPACE, world.sandbox.url)


def _cold_starts(world: ProcessWorld) -> dict[str, list[float]]:
    return {
        f.value: [round(t, 3) for t in s.cold_start_seconds] for f, s in world.processes.items()
    }


def _settle(world: ProcessWorld, hosts: int, timeout: float) -> None:
    """Until every host is `available` and no delivery is in flight; `Unsettled` naming the
    hosts as soon as the rest are all ones BMO reports stuck or refused, or at `timeout`."""
    view, ns = CustomObjects(world.api_client(), "metal3.io", "v1alpha1"), bench_inventory.NAMESPACE

    def states() -> dict[str, str | None]:
        return {i["metadata"]["name"]: _state(i) for i in view.list_items("baremetalhosts", ns)}

    def stuck() -> dict[str, str]:
        with_reason = {**world.bmo.refused, **world.bmo.stuck}  # copied in C: no lock needed
        return {name: why for (space, name), why in with_reason.items() if space == ns}

    settle(Probes(states, stuck, lambda s: world.broker.wait_idle(timeout=s)), hosts, timeout)


def _state(host: dict[str, Any]) -> str | None:
    state = ((host.get("status") or {}).get("provisioning") or {}).get("state")
    return None if state is None else str(state)
