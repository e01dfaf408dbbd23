"""The fleet at rest: what rewriting every host's status costs once the batch is done.

Exists apart from the runner because its end is a condition, not a sleep: every rewrite must
have reached a function (or nothing moved for a while) before the idle window closes, else the
work it causes under the synchronous broker — the sources still hold events when the Broker is
idle — would fall after the window and go uncounted ("zero work at rest" would be unproven).
"""

from __future__ import annotations

import time

from dhcpless_sandbox.bench import inventory as bench_inventory
from dhcpless_sandbox.bench.world import ProcessWorld
from dhcpless_sandbox.controllers.custom_objects import CustomObjects

IDLE_ROUNDS = 4
QUIET_SECONDS = 5.0
"""At rest, no new invocation for this long (and an idle Broker) ends the wait."""
DEADLINE_SECONDS = 300.0


def calls(world: ProcessWorld) -> int:
    """Events delivered to the function processes so far (retries included)."""
    return sum(s.invocations for s in world.processes.values())


def at_rest(
    world: ProcessWorld, admin: object, names: list[str], deadline_seconds: float = DEADLINE_SECONDS
) -> None:
    """The fleet at rest: every host's status rewritten `IDLE_ROUNDS` times, as BMO does; then
    wait until each rewrite reached a function (one event each), or nothing moved for
    `QUIET_SECONDS`: under the synchronous broker the sources still hold events when the
    Broker is idle, and work they cause after the window would go uncounted."""
    view = CustomObjects(admin, "metal3.io", "v1alpha1")  # type: ignore[arg-type]
    before = calls(world)
    for round_ in range(IDLE_ROUNDS):
        for name in names:
            status = {"poweredOn": round_ % 2 == 1, "errorCount": 0}
            view.patch_status("baremetalhosts", bench_inventory.NAMESPACE, name, status)
    deadline, seen, quiet_since = time.monotonic() + deadline_seconds, -1, time.monotonic()
    while time.monotonic() < deadline:
        now = calls(world)
        seen, quiet_since = (seen, quiet_since) if now == seen else (now, time.monotonic())
        reached = now - before >= IDLE_ROUNDS * len(names)
        if (reached or time.monotonic() - quiet_since >= QUIET_SECONDS) and _drained(world):
            return
        time.sleep(0.5)


def _drained(world: ProcessWorld) -> bool:
    """No delivery in flight, and still none a moment later."""
    if not world.broker.wait_idle(timeout=1.0):
        return False
    time.sleep(1.0)
    return world.broker.wait_idle(timeout=1.0)
