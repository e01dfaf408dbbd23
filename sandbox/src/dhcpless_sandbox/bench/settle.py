"""After the batch, until every host is `available`: fail fast, by name, when some never will be.

Exists apart from the runner because the waiting used to be silent: a host whose ramdisk cannot
configure its boot NIC stays `inspecting` for ever (the BMO stand-in notes it in `bmo.stuck`,
as BMO keeps retrying inspection with backoff), and the bench then sat out its whole deadline
and went on as if nothing had happened. Now the wait ends as soon as every host that is not
available is one BMO reports stuck (or refused), and the error names them; at the deadline it
names the hosts still not available and their states.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass

AVAILABLE = "available"
POLL_SECONDS = 0.5
STUCK_POLLS = 2
"""Polls in a row in which every waiting host is stuck before the wait gives up (a host BMO
has just marked may still be unmarked on its next boot: one poll is not enough to decide)."""


class Unsettled(RuntimeError):
    """Some hosts never became available; the message names them (never Secret contents)."""


@dataclass(frozen=True)
class Probes:
    """What the wait looks at, as functions (so it runs against fakes in unit tests)."""

    states: Callable[[], Mapping[str, str | None]]
    """Each host's `status.provisioning.state`, by name."""
    stuck: Callable[[], Mapping[str, str]]
    """Hosts BMO reports as never going to finish (stuck or refused), by name, with why."""
    idle: Callable[[float], bool]
    """Whether no delivery is in flight, waiting at most the given seconds."""


def hopeless(states: Mapping[str, str | None], stuck: Mapping[str, str]) -> dict[str, str]:
    """The waiting hosts when every one of them is stuck (else empty: progress is possible)."""
    waiting = [name for name, state in states.items() if state != AVAILABLE]
    if not waiting or any(name not in stuck for name in waiting):
        return {}
    return {name: stuck[name] for name in sorted(waiting)}


def settle(probes: Probes, hosts: int, timeout: float) -> None:
    """Return once `hosts` are available and the broker is idle twice in a row; `Unsettled`
    as soon as the rest are all stuck for `STUCK_POLLS` polls, or at the deadline."""
    deadline, hopeless_polls = time.monotonic() + timeout, 0
    while time.monotonic() < deadline:
        states = probes.states()
        if list(states.values()).count(AVAILABLE) >= hosts and _quiet(probes):
            return
        found = hopeless(states, probes.stuck())
        hopeless_polls = hopeless_polls + 1 if found else 0
        if hopeless_polls >= STUCK_POLLS:
            raise Unsettled(f"{len(found)} host(s) will never be available: {_named(found)}")
        time.sleep(POLL_SECONDS)
    waiting = {n: str(s) for n, s in probes.states().items() if s != AVAILABLE}
    raise Unsettled(
        f"{len(waiting)} host(s) not available after {timeout:.0f} s: {_named(waiting)}"
    )


def _quiet(probes: Probes) -> bool:
    """Idle, and still idle a moment later (a delivery may be between two hops)."""
    if not probes.idle(1.0):
        return False
    time.sleep(POLL_SECONDS)
    return probes.idle(1.0)


def _named(hosts: Mapping[str, str], limit: int = 10) -> str:
    shown = ", ".join(f"{name} ({why})" for name, why in list(hosts.items())[:limit])
    return shown + (f" and {len(hosts) - limit} more" if len(hosts) > limit else "")


def quiet(count: Callable[[], object], idle: Callable[[float], bool], timeout: float) -> bool:
    """Until no delivery is in flight and `count` (the deliveries so far) stays the same over
    one poll: before the batch, the setup's own events (pools, template, the floor's hosts)
    are all handled, so none of their work is counted as the batch's. False at `timeout`."""
    deadline, last = time.monotonic() + timeout, None
    while time.monotonic() < deadline:
        now = count()
        if now == last and idle(1.0):
            return True
        last = now
        time.sleep(POLL_SECONDS)
    return False
