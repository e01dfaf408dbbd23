"""Saved bench reports and the figures drawn from them (`--record DIR`, `--figures DIR`).

`--record DIR` saves each run's JSON report as `DIR/<broker>-<hosts>.json` (a chaos run as
`DIR/chaos-<broker>-<hosts>.json`), so the README's figures are drawn from recorded runs, not
from a run made while drawing. `--figures DIR` draws them beside the folder, named after it
(`docs/bench` -> `docs/bench-unpause.png`, `docs/bench-scale.png`, `docs/bench-chaos.png`):
one documented command regenerates every committed figure.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from dhcpless_sandbox.bench import figures

Report = dict[str, Any]
CHAOS_KEY = "healthy_hosts"
"""Only a chaos report has it."""


def record(result: Report, folder: Path, hosts: int) -> Path:
    """Save one report; the name says its broker and size (a chaos run's too)."""
    folder.mkdir(parents=True, exist_ok=True)
    kind = "chaos-" if CHAOS_KEY in result else ""
    path = folder / f"{kind}{result.get('broker_mode', 'sync')}-{hosts}.json"
    path.write_text(json.dumps(result, sort_keys=True, indent=1) + "\n")
    return path


def load(folder: Path) -> list[Report]:
    """Every report saved in `folder`, in name order."""
    return [json.loads(p.read_text()) for p in sorted(folder.glob("*.json"))]


def draw(folder: Path) -> list[Path]:
    """Every figure the reports in `folder` allow; the paths written."""
    reports = load(folder)
    batches = [r for r in reports if CHAOS_KEY not in r]
    chaos_runs = [r for r in reports if CHAOS_KEY in r]
    out = folder.parent / folder.name
    written = []
    if batches:
        written.append(figures.unpause(side_by_side(batches), _named(out, "unpause")))
        sync = [r for r in batches if r.get("broker_mode", "sync") == "sync"]
        written.append(figures.scale(sync or batches, _named(out, "scale")))
    if chaos_runs:
        largest = max(chaos_runs, key=lambda r: int(r[CHAOS_KEY]))
        written.append(figures.chaos(largest, _named(out, "chaos")))
    return written


def side_by_side(batches: list[Report]) -> list[Report]:
    """The batches of the largest size run under more than one broker (else the largest):
    the brokers compared on one axis at one size."""
    by_size: dict[int, list[Report]] = {}
    for report in batches:
        by_size.setdefault(int(report["hosts"]), []).append(report)
    shared = [size for size, runs in by_size.items() if len(runs) > 1]
    size = max(shared or by_size)
    return sorted(by_size[size], key=lambda r: str(r.get("broker_mode", "")), reverse=True)


def _named(out: Path, figure: str) -> Path:
    return out.with_name(f"{out.name}-{figure}.png")
