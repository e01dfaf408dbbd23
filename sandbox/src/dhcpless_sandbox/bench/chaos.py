"""`dhcpless bench --chaos`: do hosts with a permanent problem hold up the healthy ones?

Under the default (synchronous) Broker each source delivers in series, so one event answered
with a retried status stalls every event behind it for the whole Trigger backoff. One run, one
world, a warm-up, then two batches in two namespaces: first the healthy hosts alone (the
baseline), then as many healthy hosts with broken ones interleaved (every tenth): half have no
template (no Metal3MachineTemplate selects them), half name a template whose pool is full.
Reported: each batch's p95 from registration to unpause of the healthy hosts, their ratio
(the target is at most 2), and how many broken hosts were unpaused (must be 0).
"""

from __future__ import annotations

import math
import tempfile
import time
from pathlib import Path
from typing import Any

from dhcpless import keys
from dhcpless_sandbox.bench import inventory as bench_inventory
from dhcpless_sandbox.bench.report import quantile
from dhcpless_sandbox.bench.watch import UnpauseWatch
from dhcpless_sandbox.bench.world import ProcessWorld
from dhcpless_sandbox.demo.inventory import create, kube_object
from dhcpless_sandbox.eventing.delivery import BrokerMode
from dhcpless_sandbox.runtime.world_settings import WorldSettings
from dhcpless_sandbox.standins.ramdisk import GleanMode

FULL = "full"
WARMUP = 5
"""Hosts of a first, unreported batch: both measured batches find the functions running."""
_CAPM3 = f"{keys.CAPM3_GROUP}/{keys.CAPM3_VERSION}"
_IPAM = f"{keys.IPAM_GROUP}/{keys.IPAM_VERSION}"


def measure_chaos(hosts: int, broken_every: int, mode: BrokerMode) -> dict[str, Any]:
    """Both batches in one world; `hosts` per batch, every `broken_every`-th broken in the
    second (so both batches have the same healthy hosts)."""
    with tempfile.TemporaryDirectory(prefix="dhcpless-chaos-") as tmp:
        settings = WorldSettings(
            idle_seconds=5.0, resync_seconds=300.0, glean_mode=GleanMode.IN_PROCESS,
            bmo_workers=2, namespace=bench_inventory.NAMESPACE, broker_mode=mode,
        )  # fmt: skip
        world = ProcessWorld(settings, Path(tmp))
        world.start()
        try:
            broken = {i for i in range(hosts) if i % broken_every == broken_every - 1}
            _batch(world, "chaos-warmup", WARMUP, set())  # every function started once
            base = _batch(world, "chaos-baseline", hosts - len(broken), set())
            retries = world.broker.stats.retries
            chaos = _batch(world, "chaos-broken", hosts, broken)
            return _report(mode, base, chaos, len(broken), world.broker.stats.retries - retries)
        finally:
            world.stop()


def _batch(world: ProcessWorld, ns: str, count: int, broken: set[int]) -> dict[str, Any]:
    """Create the batch back to back; wait for the healthy hosts; times of each healthy one."""
    admin = world.api_client()
    create(admin, [*bench_inventory.setup(1, ns), *_full_pool(ns)])
    watch = UnpauseWatch(world.sandbox, ns)
    watch.start()
    registered: dict[str, float] = {}
    for index in range(count):
        create(admin, [_host(index, ns, index in broken)])
        registered[f"host-{index:03d}"] = time.monotonic()
    healthy = {n for i, n in enumerate(registered) if i not in broken}
    watch.wait_for(len(healthy), timeout=120.0 + count * 1.0)
    world.broker.wait_idle(timeout=60.0)
    watch.stop()
    times = [watch.unpaused.get(n, math.nan) - registered[n] for n in sorted(healthy)]
    unpaused_broken = len(set(watch.unpaused) - healthy)
    return {"times": times, "unpaused_broken": unpaused_broken}


def _host(index: int, ns: str, broken: bool) -> dict[str, Any]:
    obj = bench_inventory.hosts(index + 1, ns)[index]
    if broken and index % 2:
        obj["metadata"]["labels"] = {}  # no Metal3MachineTemplate selects it: no template
    elif broken:
        reference = f"metal3datatemplates.{keys.CAPM3_GROUP}/{FULL}"
        obj["metadata"]["annotations"][keys.TEMPLATE_REFERENCE_ANNOTATION] = reference
    return obj


def _full_pool(ns: str) -> list[dict[str, Any]]:
    """A one-address pool whose address is pre-allocated to someone else, and its template."""
    bounds = {"subnet": "10.250.0.0/24", "start": "10.250.0.10", "end": "10.250.0.10"}
    pool = {"namePrefix": FULL, "pools": [bounds],
            "prefix": 24, "preAllocations": {"squatter": "10.250.0.10"}}  # fmt: skip
    nic = {"type": "phy", "id": "eno1", "macAddress": {"fromHostInterface": "eno1"}}
    network = {"id": "full", "link": "eno1", "ipAddressFromIPPool": FULL}
    data = {"links": {"ethernets": [nic]}, "networks": {"ipv4": [network]}}
    meta = {"namespace": ns}
    return [
        kube_object(_IPAM, "IPPool", FULL, meta, pool),
        kube_object(_CAPM3, "Metal3DataTemplate", FULL, meta, {"networkData": data}),
    ]


def _report(
    mode: BrokerMode, base: dict[str, Any], chaos: dict[str, Any], broken: int, retries: int
) -> dict[str, Any]:
    done_base = [t for t in base["times"] if not math.isnan(t)]
    done_chaos = [t for t in chaos["times"] if not math.isnan(t)]
    p95_base = quantile(done_base, 0.95) if done_base else math.nan
    p95_chaos = quantile(done_chaos, 0.95) if done_chaos else math.nan
    return {
        "broker_mode": mode.value,
        "healthy_hosts": len(base["times"]),
        "broken_hosts": broken,
        "baseline_unpaused": len(done_base),
        "chaos_healthy_unpaused": len(done_chaos),
        "broken_unpaused": chaos["unpaused_broken"],
        "baseline_p95_seconds": round(p95_base, 3),
        "chaos_healthy_p95_seconds": round(p95_chaos, 3),
        "healthy_p95_ratio": round(p95_chaos / p95_base, 2) if p95_base > 0 else None,
        "broker_retries_in_chaos_batch": retries,
    }
