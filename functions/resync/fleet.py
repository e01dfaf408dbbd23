"""Fleet gauges that survive scale to zero: derived from the API objects on every resync tick.

A function pod lives for a batch and is gone before most scrapes, so nothing here counts in
memory. Instead each tick, which LISTs every host anyway and decides every paused one again,
turns what it read and decided into gauges: hosts by state, waiting hosts by the reason their
decision gives (the Warning the pipeline records, `Pending` while claims or the Secret are on
their way), the refusals among them (validation), and the oldest wait. The values are the
fleet's state, not a process's history, so the next tick of any pod gives the same numbers, and
a lost pod loses nothing. They are served as Prometheus text on resync's `GET /metrics` (the
last tick's) and, with `DHCPLESS_METRICS_PUSH_URL` set, PUT to a Pushgateway group after each
tick (a PUT replaces the group: a deleted host leaves no stale series).
"""

from __future__ import annotations

import logging
import threading
import urllib.request
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from dhcpless import keys
from dhcpless.chain.gate import gate
from dhcpless.chain.predicates import on_host
from dhcpless.models import BareMetalHost
from dhcpless.reasons import Reason

log = logging.getLogger(__name__)
PENDING = "Pending"
"""The waiting reason of a paused host with no Warning decided: its claims or Secret are due."""
REFUSALS = frozenset(
    {
        Reason.INVALID_TEMPLATE,
        Reason.INVALID_NETWORK_DATA,
        Reason.SECRET_INVALID,
        Reason.SECRET_UNUSABLE,
        Reason.NAME_TOO_LONG,
        Reason.BMC_BOOTS_BY_PXE,
        Reason.UNKNOWN_BMC_DRIVER,
    }
)
"""Waiting reasons that are a validation refusal: a person must fix an object (a template, a
Secret, the host's name or its BMC address)."""
METRICS = {
    "dhcpless_hosts": "Hosts we manage, by state (waiting, released, inspecting, stuck, unpaused).",
    "dhcpless_hosts_waiting": "Paused hosts, by the reason their last decision gives.",
    "dhcpless_hosts_refused": "Paused hosts refused by a validation rule, by reason.",
    "dhcpless_host_waiting_oldest_seconds": "Age of the oldest paused host (0: none waiting).",
    "dhcpless_resync_tick_timestamp_seconds": "When the tick that computed these values ran.",
}
"""Every metric exported, with its HELP text (the dashboard and the alerts name only these)."""
PUSH_TIMEOUT = 5.0
TEXT = "text/plain; version=0.0.4; charset=utf-8"
"""The Prometheus text exposition format's content type."""


class HostState(StrEnum):
    WAITING = "waiting"
    RELEASED = "released"
    INSPECTING = "inspecting"
    STUCK = "stuck"
    UNPAUSED = "unpaused"


@dataclass(frozen=True)
class Seen:
    """One host as a tick saw it."""

    namespace: str
    state: HostState
    reason: str = ""
    age_seconds: float = 0.0


def seen(host: BareMetalHost, reason: str | None, now: datetime, hang_after: float) -> Seen | None:
    """Pure: the host's state (None: not ours); `reason` is its tick decision's, if decided."""
    created = host.metadata.creation_timestamp
    born = datetime.fromisoformat(created.replace("Z", "+00:00")) if created else now
    age = max(0.0, (now - born).total_seconds())
    if gate(host).ours and reason != Reason.HOST_RELEASED:
        return Seen(host.namespace, HostState.WAITING, reason or PENDING, age)
    if gate(host).ours:  # listed paused, released by this very tick
        return Seen(host.namespace, HostState.RELEASED)
    if keys.RELEASED_AT_ANNOTATION in host.annotations:
        if on_host.hanging(host, now, hang_after):
            return Seen(host.namespace, HostState.STUCK)
        state = HostState.INSPECTING if on_host.stalled(host) else HostState.RELEASED
        return Seen(host.namespace, state)
    return Seen(host.namespace, HostState.UNPAUSED) if on_host.slipped(host) else None


def waiting_reason(reasons: Iterable[Reason]) -> str:
    """`HostReleased` when the decision released the host, else the first Warning among its
    Events, else `ClaimFailed` when it retried a failed claim, else `PENDING`."""
    reasons = list(reasons)
    if Reason.HOST_RELEASED in reasons:
        return Reason.HOST_RELEASED.value
    warning = next((r.value for r in reasons if r.severity.value == "Warning"), None)
    if warning is None and Reason.CLAIM_RETRIED in reasons:
        return Reason.CLAIM_FAILED.value  # a tick retries a failed claim (`chain.decide.heal`)
    return warning or PENDING


def exposition(fleet: Iterable[Seen], namespaces: Iterable[str], now: datetime) -> str:
    """Prometheus text format (0.0.4) of the fleet; every listed namespace has its zeros."""
    fleet = list(fleet)
    lines: list[str] = []
    for name, help_text in METRICS.items():
        lines += [f"# HELP {name} {help_text}", f"# TYPE {name} gauge"]
        lines += [
            _sample(name, labels, value) for labels, value in _values(name, fleet, namespaces, now)
        ]
    return "\n".join(lines) + "\n"


def _values(
    name: str, fleet: list[Seen], namespaces: Iterable[str], now: datetime
) -> list[tuple[dict[str, str], float]]:
    spaces = sorted(set(namespaces) | {s.namespace for s in fleet})
    waiting = [s for s in fleet if s.state is HostState.WAITING]
    if name == "dhcpless_hosts":
        counts = Counter((s.namespace, s.state.value) for s in fleet)
        return [
            ({"namespace": n, "state": st.value}, counts[n, st.value])
            for n in spaces
            for st in HostState
        ]
    if name in ("dhcpless_hosts_waiting", "dhcpless_hosts_refused"):
        refused = name == "dhcpless_hosts_refused"
        counts = Counter(
            (s.namespace, s.reason) for s in waiting if not refused or s.reason in REFUSALS
        )
        return [({"namespace": n, "reason": r}, v) for (n, r), v in sorted(counts.items())]
    if name == "dhcpless_host_waiting_oldest_seconds":
        oldest = {
            n: max((s.age_seconds for s in waiting if s.namespace == n), default=0.0)
            for n in spaces
        }
        return [({"namespace": n}, v) for n, v in oldest.items()]
    return [({}, round(now.timestamp(), 3))]


def _sample(name: str, labels: dict[str, str], value: float) -> str:
    escaped = (v.replace("\\", "\\\\").replace('"', '\\"') for v in labels.values())
    text = ",".join(f'{k}="{v}"' for k, v in zip(labels, escaped, strict=True))
    return f"{name}{{{text}}} {value:g}" if text else f"{name} {value:g}"


class Latest:
    """The last tick's exposition (what `GET /metrics` answers), pushed when a URL is set."""

    def __init__(self, push_url: str = "") -> None:
        self.push_url, self._lock, self._text = push_url, threading.Lock(), ""

    @property
    def text(self) -> str:
        with self._lock:
            return self._text

    def publish(self, text: str) -> None:
        with self._lock:
            self._text = text
        if self.push_url:
            push(self.push_url, text)


def push(url: str, text: str) -> None:
    """PUT the exposition to a Pushgateway group; a failure is logged, never the tick's."""
    request = urllib.request.Request(url, data=text.encode(), method="PUT")
    request.add_header("Content-Type", TEXT)
    try:
        with urllib.request.urlopen(request, timeout=PUSH_TIMEOUT):
            pass
    except OSError as err:
        log.warning("fleet metrics not pushed: %s", type(err).__name__)
