"""The bench's figures, drawn by matplotlib (the distribution's optional `plot` extra).

Plotting is not ours to write (issue 30): matplotlib draws every figure on its Agg canvas (no
display), from the bench's JSON reports as `dhcpless bench --json` prints them. Three figures:

* `unpause`: seconds from registration to unpause per host, one series per report on one
  axis (both brokers side by side), a dashed line at each series' p95;
* `scale`: the fleet sizes side by side (one broker): batch seconds, p50/p95 to unpause,
  function-to-floor ratio, RSS per function, each panel with its unit;
* `chaos`: the chaos run's healthy hosts with and without broken ones beside them.

Imported only where a figure is drawn, so the bench runs without the extra
(`MISSING` says which extra to install).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

Report = dict[str, Any]
EXTRA = "plot"
MISSING = f"matplotlib is not installed: pip install 'metal3-dhcpless[{EXTRA}]'"
SIZE, DPI = (10.0, 5.6), 100
"""1,000 x 560 pixels: readable at the width the README shows them."""
COLORS = {"sync": "#1f77b4", "async": "#ff7f0e"}
FUNCTION_COLORS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd")
RSS_GOAL_MB, RATIO_GOAL = 80.0, 1.5


def available() -> bool:
    """matplotlib can be imported (the `plot` extra is installed)."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def _figure(rows: int = 1, columns: int = 1) -> tuple[Any, Any]:
    from matplotlib.figure import Figure  # Agg canvas when saved: no display, no pyplot

    figure = Figure(figsize=SIZE, dpi=DPI, layout="constrained")
    return figure, figure.subplots(rows, columns, squeeze=False)


def _save(figure: Any, path: Path) -> Path:
    figure.savefig(path, format="png")
    return path


def unpause(reports: Sequence[Report], path: Path) -> Path:
    """Time to unpause per host, every report on one axis (shared scale by construction)."""
    figure, axes = _figure()
    ax = axes[0][0]
    for report in reports:
        seconds = [t for t in report["to_unpause_seconds"] if t == t]  # NaN: never unpaused
        mode = str(report.get("broker_mode", "sync"))
        color = COLORS.get(mode, "#555555")
        label = (
            f"{mode} broker, {report['hosts']:,} hosts: "
            f"p50 {report['p50_seconds']:.1f} s, p95 {report['p95_seconds']:.1f} s"
        )
        ax.scatter(range(1, len(seconds) + 1), seconds, s=6, color=color, label=label)
        ax.axhline(report["p95_seconds"], color=color, linestyle="--", linewidth=1)
    ax.set_title("Time from registration to unpause, per host (dashed: p95)")
    ax.set_xlabel("host, in registration order")
    ax.set_ylabel("seconds to unpause")
    ax.set_ylim(bottom=0)
    ax.grid(True, alpha=0.3)
    ax.legend(loc="upper left")
    return _save(figure, path)


def scale(reports: Sequence[Report], path: Path) -> Path:
    """The fleet sizes side by side: one panel per figure of merit, each with its unit."""
    ordered = sorted(reports, key=lambda r: int(r["hosts"]))
    sizes = [f"{int(r['hosts']):,}" for r in ordered]
    figure, axes = _figure(2, 2)
    mode = str(ordered[0].get("broker_mode", "sync")) if ordered else "sync"
    figure.suptitle(f"dhcpless bench by fleet size ({mode} broker, one run each)")
    _bars(axes[0][0], sizes, [r["seconds"] for r in ordered], "batch: seconds to unpause all")
    _percentiles(axes[0][1], sizes, ordered)
    ratio = axes[1][0]
    _bars(ratio, sizes, [r["function_to_floor_ratio"] for r in ordered], "")
    ratio.axhline(RATIO_GOAL, color="#d62728", linestyle="--", linewidth=1, label="goal 1.5x")
    ratio.set_ylabel("function time / floor (x)")
    ratio.legend(loc="lower right")
    _rss(axes[1][1], sizes, ordered)
    return _save(figure, path)


def _bars(ax: Any, sizes: list[str], values: list[float], ylabel: str) -> None:
    bars = ax.bar(sizes, values, color=COLORS["sync"])
    ax.bar_label(bars, fmt="%.4g", padding=2)
    ax.set_xlabel("hosts in the batch")
    ax.set_ylabel(ylabel or ax.get_ylabel())
    ax.margins(y=0.15)
    ax.grid(True, axis="y", alpha=0.3)


def _percentiles(ax: Any, sizes: list[str], reports: list[Report]) -> None:
    at = range(len(sizes))
    width = 0.4
    for offset, key, color in ((-0.2, "p50", "#9ecae1"), (0.2, "p95", COLORS["sync"])):
        values = [r[f"{key}_seconds"] for r in reports]
        bars = ax.bar([x + offset for x in at], values, width, color=color, label=key)
        ax.bar_label(bars, fmt="%.0f", padding=2)
    ax.set_xticks(list(at), sizes)
    ax.set_xlabel("hosts in the batch")
    ax.set_ylabel("seconds to unpause a host")
    ax.margins(y=0.15)
    ax.legend(loc="upper left")
    ax.grid(True, axis="y", alpha=0.3)


def _rss(ax: Any, sizes: list[str], reports: list[Report]) -> None:
    functions = sorted({name for r in reports for name in r["rss_mb"]})
    width = 0.8 / max(len(functions), 1)
    for i, name in enumerate(functions):
        xs = [x - 0.4 + width * (i + 0.5) for x in range(len(sizes))]
        values = [r["rss_mb"].get(name, 0.0) for r in reports]
        color = FUNCTION_COLORS[i % len(FUNCTION_COLORS)]
        ax.bar(xs, values, width, label=name, color=color)
    ax.axhline(RSS_GOAL_MB, color="#d62728", linestyle="--", linewidth=1, label="goal 80 MB")
    ax.set_xticks(list(range(len(sizes))), sizes)
    ax.set_xlabel("hosts in the batch")
    ax.set_ylabel("resident memory per function (MB)")
    highest = max((v for r in reports for v in r["rss_mb"].values()), default=0.0)
    ax.set_ylim(0, max(RSS_GOAL_MB * 1.5, highest * 1.35))  # room for the legend
    ax.legend(loc="upper left", fontsize=8, ncols=3)
    ax.grid(True, axis="y", alpha=0.3)


def chaos(report: Report, path: Path) -> Path:
    """Healthy hosts alone, then with every tenth host broken beside them: p95 and counts."""
    figure, axes = _figure(1, 2)
    mode = report.get("broker_mode", "sync")
    ratio = report.get("healthy_p95_ratio")
    figure.suptitle(
        f"dhcpless bench --chaos ({mode} broker): healthy hosts alone and beside broken ones"
        + (f" (p95 ratio {ratio})" if ratio is not None else "")
    )
    runs = ["healthy only", "with broken hosts"]
    p95 = [report["baseline_p95_seconds"], report["chaos_healthy_p95_seconds"]]
    _bars(axes[0][0], runs, p95, "p95 seconds to unpause a healthy host")
    axes[0][0].set_xlabel("")
    counts = axes[0][1]
    kinds = ["healthy", "broken"]
    hosts = [report["healthy_hosts"], report["broken_hosts"]]
    unpaused = [report["chaos_healthy_unpaused"], report["broken_unpaused"]]
    at = range(len(kinds))
    counts.bar([x - 0.2 for x in at], hosts, 0.4, label="hosts", color="#9ecae1")
    bars = counts.bar([x + 0.2 for x in at], unpaused, 0.4, label="unpaused", color="#1f77b4")
    counts.bar_label(bars, padding=2)
    counts.set_xticks(list(at), kinds)
    counts.set_ylabel("hosts in the chaos batch")
    counts.legend(loc="upper right")
    counts.grid(True, axis="y", alpha=0.3)
    return _save(figure, path)
