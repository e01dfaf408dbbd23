"""Cold start of each function against the floor app and the bare app, measured alike.

Each process is started by `sandbox.processes` on a socket bound beforehand and sent one
event at once; the time from `Popen` to the answer is its cold start. Every function gets an
event that takes its real path up to one API read (the kind it serves, about an object that
does not exist, so nothing is written); the floor app (`bench_floor_app`: the same runtime
dependencies, one model, one GET) and the bare app (`bench_bare`: Flask + cloudevents) get
the host-registration event. The median of
`repeats` starts is reported, so one slow start on a busy machine does not decide the ratio;
`cold_start_ratio_to_floor` is the median of per-pair ratios, each function started right
next to a floor app start, so both meet the same load.
"""

from __future__ import annotations

import statistics
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import urllib3
from cloudevents.core.base import BaseCloudEvent
from cloudevents.core.bindings.http import to_binary_event

from dhcpless import keys
from dhcpless.keys import FunctionName
from dhcpless_sandbox.bench.bare_app import APP as BARE_APP
from dhcpless_sandbox.bench.floor_app import APP as FLOOR_APP
from dhcpless_sandbox.controllers.reflector import WatchEvent
from dhcpless_sandbox.eventing.source_events import Mode, make_event
from dhcpless_sandbox.runtime.processes import ProcessFunctionService, ProcessSpec
from dhcpless_sandbox.runtime.wiring import ping_event

ABSENT = "bench-absent"
BARE = "bare"
FLOOR = "floor"
REFERENCES = (BARE, FLOOR)
"""The apps the functions are compared with (probed with host-registration's event)."""


def probe(function: FunctionName, namespace: str, source: str) -> BaseCloudEvent:
    """An event `function` handles up to one read (of an object that is not there)."""
    meta: dict[str, Any] = {"name": ABSENT, "namespace": namespace, "uid": str(uuid.uuid4())}
    if function is FunctionName.HOST_REGISTRATION:
        paused = {keys.PAUSED_ANNOTATION: keys.PREPROVISIONING_PAUSE}
        host = {"apiVersion": "metal3.io/v1alpha1", "kind": "BareMetalHost"}
        obj = {**host, "metadata": {**meta, "annotations": paused}, "spec": {"online": True}}
        return make_event(obj, WatchEvent.ADDED, Mode.RESOURCE, source)
    if function is FunctionName.IPCLAIM_FULFILMENT:
        labels = {keys.HOST_LABEL: ABSENT, keys.MANAGED_BY_LABEL: keys.MANAGED_BY_VALUE}
        spec = {"pool": {"name": "absent"}}
        claim = {"apiVersion": f"{keys.IPAM_GROUP}/{keys.IPAM_VERSION}", "kind": "IPClaim"}
        obj = {**claim, "metadata": {**meta, "labels": labels}, "spec": spec}
        return make_event(obj, WatchEvent.ADDED, Mode.RESOURCE, source)
    if function is FunctionName.SECRET_READINESS:
        obj = {"apiVersion": "v1", "kind": "Secret", "metadata": meta}
        return make_event(obj, WatchEvent.ADDED, Mode.REFERENCE, source)
    return ping_event()


def cold_start(
    spec: ProcessSpec, event: BaseCloudEvent, http: urllib3.PoolManager
) -> tuple[float, float]:
    """Start one process, send it `event`, stop it: seconds from start to its answer, and
    its memory (MiB) once it answered."""
    service = ProcessFunctionService(spec.app, spec, idle_seconds=0.0)
    message = to_binary_event(event)
    try:
        with service.request() as url:
            answer = http.request("POST", url, body=message.body, headers=dict(message.headers))
        if answer.status >= 300:
            raise RuntimeError(f"{spec.app} answered {answer.status} to its probe event")
    finally:
        service.stop()
    return service.cold_start_seconds[0], service.peak_pss_mb


@dataclass(frozen=True)
class ColdStarts:
    """Median seconds per name, peak memory per name, and each function's median ratio to
    the floor app over the pairs it was started in."""

    seconds: dict[str, float]
    memory: dict[str, float]
    ratio_to_floor: dict[str, float]


def measure(
    specs: dict[str, ProcessSpec],
    event_for: Callable[[str], BaseCloudEvent],
    repeats: int,
    floor_env: dict[str, str],
    paired: bool = True,
) -> ColdStarts:
    """Cold starts, `repeats` rounds: the bare app once a round, and each function paired with
    a floor app start right before or after it (the order alternates, so a drifting load
    favours neither); the ratio of each pair, not of two medians taken at different times.
    `repeats=0` measures nothing (a run that only needs the batch's counts: empty figures).
    `paired=False`: one floor start a round, shared by every function's ratio (the test suite's
    cheaper run, whose ratios are only bounded; the bench keeps the pairs)."""
    if repeats < 1:
        return ColdStarts({}, {}, {})
    http = urllib3.PoolManager(retries=False, timeout=60.0)
    bare, floor = ProcessSpec(BARE_APP), ProcessSpec(FLOOR_APP, floor_env)
    runs: dict[str, list[tuple[float, float]]] = {name: [] for name in (BARE, FLOOR, *specs)}
    ratios: dict[str, list[float]] = {name: [] for name in specs}
    for round_ in range(repeats):
        runs[BARE].append(cold_start(bare, event_for(BARE), http))
        if not paired:
            runs[FLOOR].append(cold_start(floor, event_for(FLOOR), http))
        for index, (name, spec) in enumerate(specs.items()):
            pair = [(FLOOR, floor), (name, spec)] if paired else [(name, spec)]
            for who, what in pair if (round_ + index) % 2 == 0 else pair[::-1]:
                runs[who].append(cold_start(what, event_for(who), http))
            ratios[name].append(runs[name][-1][0] / runs[FLOOR][-1][0])
    medians = {n: round(statistics.median(t for t, _ in r), 3) for n, r in runs.items()}
    memory = {n: max(m for _, m in r) for n, r in runs.items()}
    ratio = {n: round(statistics.median(r), 2) for n, r in ratios.items()}
    return ColdStarts(medians, memory, ratio)
