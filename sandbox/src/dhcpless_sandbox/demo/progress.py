"""The demo's live progress display on a terminal: a bar of hosts `available`, the count of
every other state, and the time, redrawn in place by rich (a maintained library, part of the
`sandbox` extra with the rest of the demo). Off a terminal the demo prints plain lines instead
(`demo_report.Progress`), so logs and CI output stay readable.
"""

from __future__ import annotations

from collections import Counter
from typing import TextIO

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, TaskID, TextColumn, TimeElapsedColumn
from rich.progress import Progress as RichProgress


def _others(states: Counter[str]) -> str:
    return ", ".join(f"{s} {n}" for s, n in sorted(states.items()) if s != "available")


class LiveProgress:
    """One bar, started at the first update and stopped (left on screen) at the final one."""

    def __init__(self, stream: TextIO) -> None:
        console = Console(file=stream, force_terminal=True)
        columns = (TextColumn("available"), BarColumn(), MofNCompleteColumn())
        self._bar = RichProgress(
            *columns, TextColumn("{task.description}"), TimeElapsedColumn(), console=console
        )
        self._task: TaskID | None = None

    def show(self, states: Counter[str], final: bool) -> None:
        total = max(sum(states.values()), 1)
        if self._task is None:
            self._bar.start()
            self._task = self._bar.add_task("", total=total)
        done = states.get("available", 0)
        self._bar.update(self._task, completed=done, total=total, description=_others(states))
        if final:
            self._bar.stop()
