"""`dhcpless status [-n NAMESPACE] [--json]`: where every host we manage stands, one line each.

A host is ours when it is paused with our value, carries our released-at annotation, or has
our IPClaims; a host a template applies to that was never paused is listed too ("not
paused"). Its phase (`status_phase`, pure) matches our Events: one phase per blocking reason,
else the objects' progress. TEMPLATE is the template our claims recorded or that resolution
finds (annotation or hostSelector). The last reason is that of the latest Event our functions
recorded on the host (by time, count, then storage order). A host that slipped through
(unpaused, no network data, registering or inspecting: `chain.slipped`) is listed as
`registered without pause`. Works against the
sandbox and a real cluster alike (the client is configured from KUBECONFIG).
"""

from __future__ import annotations

import json
import sys
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from typing import TextIO

from kubernetes.client import ApiClient
from kubernetes.config import ConfigException

from dhcpless import keys
from dhcpless.chain.decide import hang
from dhcpless.chain.gate import secret_name
from dhcpless.errors import DhcplessError
from dhcpless.kube import configuration
from dhcpless.kube.api.client import Kube
from dhcpless.models import BareMetalHost, IPClaim, Metal3MachineTemplate
from dhcpless.templates import resolve
from dhcpless.templates.selectors import ResolveError
from dhcpless.tools.status.phase import Phase, Seen, phase_of
from dhcpless.tools.status.read import Fleet, HostEvent, read_fleet


@dataclass(frozen=True, slots=True)
class Row:
    namespace: str
    name: str
    phase: Phase
    template: str
    addresses: tuple[str, ...]
    age_seconds: int
    reason: str
    message: str


def rows(fleet: Fleet, now: datetime, hang_after: float) -> list[Row]:
    """Pure: one row per host we manage, sorted by namespace and name."""
    found = []
    for host in sorted(fleet.hosts, key=lambda h: (h.namespace, h.name)):
        claims = _claims_of(fleet, host)
        last = _last_event(fleet.events, host)
        template = template_of(host, claims, fleet.machine_templates)
        seen = Seen(
            tuple(claims),
            (host.namespace, secret_name(host)) in fleet.secrets,
            last.reason if last else "",
            template != "-",
        )
        phase = phase_of(host, seen, now, hang_after)
        if phase is not None:
            found.append(_row(fleet, host, claims, phase, now, template))
    return found


def template_of(
    host: BareMetalHost, claims: list[IPClaim], m3mts: list[Metal3MachineTemplate]
) -> str:
    """The template the functions use for the host: what our claims recorded, else what
    resolution finds now (the annotation, or a hostSelector), else "-"."""
    recorded = [c.metadata.annotations.get(keys.CLAIM_TEMPLATE_ANNOTATION) for c in claims]
    if any(recorded):
        return next(r for r in recorded if r)
    try:
        resolution = resolve.resolve_template(host, m3mts)
    except ResolveError:
        return "-"
    return str(resolution.ref) if isinstance(resolution, resolve.Resolved) else "-"


def _claims_of(fleet: Fleet, host: BareMetalHost) -> list[IPClaim]:
    return [
        c
        for c in fleet.claims
        if c.metadata.labels.get(keys.HOST_LABEL) == host.name
        and c.metadata.labels.get(keys.HOST_NAMESPACE_LABEL, c.metadata.namespace) == host.namespace
    ]


def _row(
    fleet: Fleet,
    host: BareMetalHost,
    claims: list[IPClaim],
    phase: Phase,
    now: datetime,
    template: str,
) -> Row:
    refs = [(c.status.address, c.metadata.namespace) for c in claims]
    names = {(ref.namespace or ns, ref.name) for ref, ns in refs if ref is not None}
    addresses = sorted(
        f"{a.spec.address}/{a.spec.prefix}" if a.spec.prefix is not None else a.spec.address
        for a in fleet.addresses
        if (a.metadata.namespace, a.metadata.name) in names
    )
    last = _last_event(fleet.events, host)
    return Row(
        namespace=host.namespace,
        name=host.name,
        phase=phase,
        template=template,
        addresses=tuple(addresses),
        age_seconds=_age(host, now),
        reason=last.reason if last else "",
        message=last.message if last else "",
    )


def _last_event(events: list[HostEvent], host: BareMetalHost) -> HostEvent | None:
    """The latest by time, then count (a repeated Event is newer), then the order the API
    server stored them in (resourceVersion): Event times have one-second resolution."""
    mine = [e for e in events if (e.namespace, e.host) == (host.namespace, host.name)]
    return max(mine, key=lambda e: (e.when, e.count, e.order), default=None)


def _age(host: BareMetalHost, now: datetime) -> int:
    created = host.metadata.creation_timestamp or ""
    try:
        since = datetime.fromisoformat(created.replace("Z", "+00:00"))
    except ValueError:
        return 0
    return max(0, int((now - since).total_seconds()))


def human_age(seconds: int) -> str:
    """kubectl's short form: 45s, 12m, 5h, 3d."""
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= size * (2 if unit != "m" else 1):
            return f"{seconds // size}{unit}"
    return f"{seconds}s"


def table(found: list[Row], wide: bool = False) -> str:
    """kubectl's layout: the default columns fit 100 characters for usual names (one address,
    the reason); `-o wide` adds the template and every address."""
    header = WIDE_HEADER if wide else HEADER
    lines = [header] + [_cells(r, wide) for r in found]
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    return "\n".join(
        "  ".join(cell.ljust(width) for cell, width in zip(line, widths, strict=True)).rstrip()
        for line in lines
    )


HEADER = ("NAMESPACE", "NAME", "PHASE", "ADDRESS", "AGE", "LAST REASON")
WIDE_HEADER = ("NAMESPACE", "NAME", "PHASE", "TEMPLATE", "ADDRESSES", "AGE", "LAST REASON")


def _cells(r: Row, wide: bool) -> tuple[str, ...]:
    age = human_age(r.age_seconds)
    if wide:
        addresses = ",".join(r.addresses) or "-"
        return (r.namespace, r.name, r.phase.value, r.template, addresses, age, r.reason or "-")
    more = f" (+{len(r.addresses) - 1})" if len(r.addresses) > 1 else ""
    first = (r.addresses[0] + more) if r.addresses else "-"
    return (r.namespace, r.name, r.phase.value, first, age, r.reason or "-")


def as_json(found: list[Row]) -> str:
    return json.dumps({"hosts": [asdict(r) for r in found]}, indent=2, sort_keys=True)


@dataclass(frozen=True, slots=True)
class Output:
    """How the caller asked: `-o wide`, and which kubeconfig and context (kubectl's flags)."""

    wide: bool = False
    kubeconfig: str | None = None
    context: str | None = None


DEFAULT_OUTPUT = Output()


def caller_client(kubeconfig: str | None = None, context: str | None = None) -> Kube:
    """The caller's kubeconfig (`--kubeconfig`, else `KUBECONFIG` merged as kubectl merges it;
    `--context`), without the functions' watch cache: a command that reads once starts no
    watches (which the caller's RBAC may not even allow)."""
    return Kube(ApiClient(configuration(explicit=kubeconfig, context=context)))


def run_status(
    namespace: str | None,
    json_output: bool,
    kube: Kube | None = None,
    out: TextIO | None = None,
    hang_after: float = hang.DEFAULT_HANG_SECONDS,
    output: Output = DEFAULT_OUTPUT,
) -> int:
    """Print the hosts we manage (table or JSON); 0, or 1 when the API cannot be read."""
    stream = out or sys.stdout
    try:
        fleet = read_fleet(kube or caller_client(output.kubeconfig, output.context), namespace)
    except (DhcplessError, ConfigException, OSError) as err:  # one clear line, exit 1
        print(f"dhcpless status: cannot read the cluster: {err}", file=sys.stderr)
        return 1
    found = rows(fleet, datetime.now(UTC), hang_after)
    stream.write((as_json(found) if json_output else table(found, output.wide)) + "\n")
    return 0
