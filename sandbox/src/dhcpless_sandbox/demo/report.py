"""What the demo shows: host rows read back from the API, live progress, the final summary.

Exists apart from the demo runner because output formats are their own contract (the table
people read, the JSON object scripts and tests read) and because it only reads: each host's
state from its BareMetalHost, its IP from the IPAddress of its claim `<host>-<pool>`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any, TextIO

from kubernetes import client

from dhcpless import keys
from dhcpless_sandbox.controllers.custom_objects import CustomObjects
from dhcpless_sandbox.demo.inventory import NAMESPACE, POOL
from dhcpless_sandbox.runtime.world import World
from dhcpless_sandbox.standins.bmh_status import provisioning_state

if TYPE_CHECKING:
    from dhcpless_sandbox.demo.progress import LiveProgress

_PROGRESS_EVERY = 2.0
"""Seconds between plain progress lines when stderr is not a terminal."""


@dataclass(frozen=True)
class HostRow:
    name: str
    ip: str
    state: str
    paused: bool


def observe(
    api: client.ApiClient, namespace: str = NAMESPACE, *, addresses: bool = True
) -> list[HostRow]:
    """Current host rows: state from the BMH, IP from the IPAddress of its claim. Progress
    polls pass `addresses=False` (IPs left empty): every LIST of a few hundred objects costs
    the one process the whole world shares, and only the final table shows IPs."""
    hosts = CustomObjects(api, keys.BMO_GROUP, keys.BMO_VERSION).list_items(
        "baremetalhosts", namespace
    )
    listed = (
        CustomObjects(api, keys.IPAM_GROUP, keys.IPAM_VERSION).list_items("ipaddresses", namespace)
        if addresses
        else []
    )
    by_claim = {
        a["spec"].get("claim", {}).get("name"): a["spec"].get("address", "") for a in listed
    }
    rows = []
    for obj in hosts:
        name = obj["metadata"]["name"]
        state = provisioning_state(obj) or NO_STATE
        paused = keys.PAUSED_ANNOTATION in (obj["metadata"].get("annotations") or {})
        rows.append(HostRow(name, by_claim.get(f"{name}-{POOL}", ""), state, paused))
    return sorted(rows, key=lambda row: row.name)


NO_STATE = "-"
"""A host's state before BMO wrote one (`observe`); the progress displays call it `WAITING`."""
WAITING = "waiting"
LEGEND = (
    "hosts by BMO provisioning state; waiting: no BMO state yet "
    "(paused until its network data is ready, or not yet seen by BMO)"
)
"""Printed once above the progress, so every count in it can be read."""


def progress_states(rows: list[HostRow]) -> Counter[str]:
    """The counts the progress shows: BMO's states, `waiting` for hosts it has not touched."""
    return Counter(WAITING if row.state == NO_STATE else row.state for row in rows)


def _summary_line(rows: list[HostRow], seconds: float) -> str:
    states = progress_states(rows)
    unpaused = sum(not row.paused for row in rows)
    parts = ", ".join(f"{state} {count}" for state, count in sorted(states.items()))
    return f"{seconds:5.1f}s  hosts {len(rows)}  unpaused {unpaused}  [{parts}]"


class Progress:
    """A live progress display on a terminal (`demo_progress`), a plain line every few
    seconds otherwise."""

    def __init__(self, stream: TextIO) -> None:
        self._stream, self._last = stream, 0.0
        self._live = _live(stream) if stream.isatty() else None
        self._explained = False

    def show(self, rows: list[HostRow], seconds: float, final: bool = False) -> None:
        if not self._explained:  # before the first bar or line: what its counts mean
            self._stream.write(LEGEND + "\n")
            self._stream.flush()
            self._explained = True
        if self._live is not None:
            self._live.show(progress_states(rows), final)
        elif final or seconds - self._last >= _PROGRESS_EVERY:
            self._stream.write(_summary_line(rows, seconds) + "\n")
            self._stream.flush()
            self._last = seconds


def _live(stream: TextIO) -> LiveProgress:
    from dhcpless_sandbox.demo.progress import LiveProgress

    return LiveProgress(stream)


def report(rows: list[HostRow], world: World, seconds: float, hosts: int) -> dict[str, Any]:
    """The summary object (`--json` prints it as is).

    Counts are numbers (`stranded` too, so it can be compared with 0); the names of the
    stranded hosts are in `stranded_hosts`.
    """
    counters = world.counters()
    stranded = sorted(row.name for row in rows if row.state != "available")
    return {
        "hosts": hosts,
        "broker_mode": world.broker.mode.value,
        "unpaused": sum(not row.paused for row in rows),
        "available": sum(row.state == "available" for row in rows),
        "stranded": len(stranded),
        "stranded_hosts": stranded,
        "stuck": {f"{ns}/{name}": why for (ns, name), why in sorted(world.bmo.stuck.items())},
        "seconds": round(seconds, 2),
        "api_requests": counters.api_requests,
        "invocations": counters.invocations,
        "cold_starts": counters.cold_starts,
        "dead_letters": counters.dead_letters,
        "rows": [asdict(row) for row in rows],
    }


def print_table(rows: list[HostRow], summary: dict[str, Any], out: TextIO) -> None:
    """One line per host, then the summary in words."""
    out.write(f"{'HOST':<12} {'IP':<18} {'STATE':<14} PAUSED\n")
    for row in rows:
        out.write(
            f"{row.name:<12} {row.ip or '-':<18} {row.state:<14} {'yes' if row.paused else 'no'}\n"
        )
    requests = ", ".join(f"{verb} {n}" for verb, n in sorted(summary["api_requests"].items()))
    calls = ", ".join(f"{name} {n}" for name, n in sorted(summary["invocations"].items()))
    out.write(
        f"\n{summary['available']}/{summary['hosts']} available, {summary['unpaused']} unpaused, "
        f"{summary['stranded']} stranded in {summary['seconds']}s\n"
        f"API requests: {requests}\ninvocations: {calls}; cold starts {summary['cold_starts']}\n"
    )
    for name, why in summary["stuck"].items():
        out.write(f"stuck: {name}: {why}\n")


def _words(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k} {_words(v)}" for k, v in sorted(value.items())) or "none"
    if isinstance(value, list):
        return ", ".join(map(str, value)) or "none"
    return str(value)


def print_summary(summary: dict[str, Any], out: TextIO) -> None:
    """A summary object as `key: value` lines for people (`--json` prints the object)."""
    width = max(map(len, summary), default=0)
    for key in sorted(summary.keys() - {"rows"}):  # the per-host rows are for --json
        out.write(f"{key.replace('_', ' '):<{width}}  {_words(summary[key])}\n")
