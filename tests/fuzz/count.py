"""The count of generated inputs, by function, shared by the fuzz tests and the summary hook.

A module of its own: conftest modules are imported under a different name than the tests
import them by, so a counter kept in conftest would exist twice. Each test's share travels on
its report (`user_properties`), so the summary adds up the same figure whether the tests ran
in this process or in pytest-xdist workers.
"""

from __future__ import annotations

from collections import Counter

import pytest

GENERATED: Counter[str] = Counter()
"""Inputs answered in this process, by function (or test family)."""

PROPERTY = "fuzz-generated:"
"""The `user_properties` a test's count is reported under: (PROPERTY + family, n)."""

ANSWERED: Counter[str] = Counter()
"""Inputs answered in the whole run, summed from the reports (filled where the run reports)."""


def report_share(node: pytest.Item, before: Counter[str]) -> None:
    """Put what one test added to `GENERATED` on its report."""
    for family, count in (GENERATED - before).items():
        node.user_properties.append((PROPERTY + family, count))


def add_up(report: pytest.TestReport) -> None:
    """Add a finished test's reported share to `ANSWERED`."""
    for name, value in report.user_properties:
        if name.startswith(PROPERTY) and isinstance(value, int):
            ANSWERED[name.removeprefix(PROPERTY)] += value


def summary() -> str | None:
    """The line the run ends with, or None when no fuzz test ran."""
    if not ANSWERED:
        return None
    by_function = ", ".join(f"{name} {n}" for name, n in sorted(ANSWERED.items()))
    return f"fuzz: {sum(ANSWERED.values())} generated inputs answered ({by_function})"
