"""`dhcpless status NAMESPACE/NAME`: one host's row, then why it is held back (`explain`).

The row is the one the fleet form prints (phase, template, addresses, last reason), read from
the host's namespace only; the explanation re-reads the Secret with the caller's credentials.
"""

from __future__ import annotations

import json
import sys
from dataclasses import asdict
from datetime import UTC, datetime
from typing import Any, TextIO

from kubernetes.config import ConfigException

from dhcpless.chain.decide.hang import DEFAULT_HANG_SECONDS
from dhcpless.errors import DhcplessError
from dhcpless.kube.api.client import Kube
from dhcpless.tools.cli_errors import UsageError
from dhcpless.tools.status import explain
from dhcpless.tools.status.command import (
    DEFAULT_OUTPUT,
    Output,
    Row,
    caller_client,
    human_age,
    rows,
)
from dhcpless.tools.status.read import read_fleet


def parse_target(target: str, namespace: str | None) -> tuple[str, str]:
    """NAMESPACE/NAME, or NAME with `-n` (kubectl's `default` when neither names one)."""
    if "/" in target:
        ns, _, name = target.partition("/")
        if not ns or not name or "/" in name:
            raise UsageError(f"{target!r} is not NAMESPACE/NAME")
        if namespace and namespace != ns:
            raise UsageError(f"{target} is not in namespace {namespace} (-n)")
        return ns, name
    return namespace or "default", target


def run_single(
    target: str,
    namespace: str | None,
    json_output: bool,
    kube: Kube | None = None,
    out: TextIO | None = None,
    output: Output = DEFAULT_OUTPUT,
) -> int:
    """`run_one` with the caller's kubeconfig; the API unreadable is one line and exit 1."""
    try:
        found = kube or caller_client(output.kubeconfig, output.context)
        return run_one(found, target, namespace, json_output, out or sys.stdout)
    except (DhcplessError, ConfigException, OSError) as err:
        print(f"dhcpless status: cannot read the cluster: {err}", file=sys.stderr)
        return 1


def run_one(
    kube: Kube,
    target: str,
    namespace: str | None,
    json_output: bool,
    out: TextIO,
    hang: float = DEFAULT_HANG_SECONDS,
) -> int:
    """Print one host's row and explanation; 1 (one line) when the host is not there."""
    ns, name = parse_target(target, namespace)
    host = kube.find_host(ns, name)
    if host is None:
        print(f"dhcpless status: baremetalhost {ns}/{name} not found", file=sys.stderr)
        return 1
    found = [r for r in rows(read_fleet(kube, ns), datetime.now(UTC), hang) if r.name == name]
    secret = explain.report(kube.get_secret, host)
    if json_output:
        out.write(json.dumps(_as_json(found, secret), indent=2, sort_keys=True) + "\n")
        return 0
    head = _fields(found[0]) if found else [f"{ns}/{name}: not managed by this project"]
    out.write("\n".join([*head, *explain.lines(host, secret)]) + "\n")
    return 0


def _fields(row: Row) -> list[str]:
    """The row as `kubectl describe` shows one object: a label per line, not a wide table."""
    fields = {
        "host": f"{row.namespace}/{row.name}",
        "phase": row.phase.value,
        "template": row.template,
        "addresses": ", ".join(row.addresses) or "-",
        "age": human_age(row.age_seconds),
        "last reason": row.reason or "-",
        "last message": row.message or "-",
    }
    return [f"{label + ':':<14}{value}" for label, value in fields.items()]


def _as_json(found: list[Row], secret: explain.SecretReport | None) -> dict[str, Any]:
    return {
        "host": asdict(found[0]) if found else None,
        "secret": asdict(secret) if secret is not None else None,
    }
