"""The loss only a real cluster has: a slow function, the synchronous broker, bounded watches.

Under the synchronous broker the ApiServerSource adapter sends each event and waits; while a
function is slow its reflector stops reading the watch. The API server's cacher closes a
watcher that does not keep up (k8s.io/apiserver `pkg/storage/cacher/cache_watcher.go` `add`;
the sandbox: `WorldSettings.watch_limit`); the reflector re-watches from its last
resourceVersion, which the history no longer holds: 410 Gone, a relist, and the adapter's
`Replace` is a no-op (knative/eventing `pkg/adapter/apiserver/delegate.go`): everything that
changed meanwhile is never an event. Only resync repairs it. Shown here: the loss happens
(watchers closed and gaps counted), every host still reaches `available`, and every judge's
counter is 0.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

import pytest

from dhcpless.keys import FunctionName, ProvisioningState
from dhcpless_sandbox.runtime.chaos import ChaosSettings
from dhcpless_sandbox.standins.bmh_status import provisioning_state
from tests.scenarios.world_run import Run, judged, objects, scenario_world
from tests.support.waits import eventually, seconds

pytestmark = pytest.mark.slow
HOSTS = 20
RESYNC = 2.0
"""The resync period of this world (seconds)."""
ONE_STEP = 1.0
"""Seconds for BMO's last step after the tick that re-drove a host (inspection is instant)."""
BOUNDED: dict[str, Any] = {"watch_limit": 2, "watch_history": 60, "resync_seconds": RESYNC}
SLOW = ChaosSettings(
    seed=7, slow_function=FunctionName.HOST_REGISTRATION.value, slow_seconds=0.4,
    source_restarts=3600.0,  # no restarts: the gaps are the watch's own
)  # fmt: skip


def _available(run: Run, names: list[str]) -> bool:
    hosts = [run.host(n) for n in names]
    return all(h is not None and provisioning_state(h) == "available" for h in hosts)


@pytest.mark.parametrize("seed", [pytest.param(7, id="seed-7"), pytest.param(8, id="seed-8")])
def test_a_slow_function_loses_watch_events_and_resync_repairs_it(seed: int) -> None:
    names = [f"host-{i:03d}" for i in range(HOSTS)]
    with scenario_world(True, chaos_settings=replace(SLOW, seed=seed), **BOUNDED) as run:
        run.create(objects(HOSTS))
        eventually(lambda: run.world.watch_gaps() > 0, 60, "a watch closed, then 410 on re-watch")
        gap_at, waiting = time.monotonic(), not _available(run, names)
        run.reach(names, ProvisioningState.AVAILABLE, 120)
        after = time.monotonic() - gap_at
        closed, gaps = run.world.sandbox.store.closed_watchers, run.world.watch_gaps()
    judged(run)
    print(
        f"\nseed {seed}: watchers closed {closed}, gaps (410, relist) {gaps}; hosts waiting at "
        f"the first gap: {waiting}; all available {after:.1f}s later (resync {RESYNC}s)"
    )
    assert closed > 0 and gaps > 0  # the loss happened
    assert after <= seconds(2 * RESYNC) + ONE_STEP  # resync repaired it
