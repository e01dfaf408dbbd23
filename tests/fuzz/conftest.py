"""Fuzz fixtures: one settled sandbox for the module, and a count of generated inputs.

The count is printed at the end of the session (the issue asks for the figure) so a run shows
how many inputs the functions actually answered, not how many were configured.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from _pytest.terminal import TerminalReporter

from tests.fuzz.count import GENERATED
from tests.fuzz.world import Fuzzed, fuzzed


@pytest.fixture(scope="module")
def world() -> Iterator[Fuzzed]:
    with fuzzed() as made:
        yield made


def pytest_terminal_summary(terminalreporter: TerminalReporter) -> None:
    if GENERATED:
        by_function = ", ".join(f"{name} {n}" for name, n in sorted(GENERATED.items()))
        terminalreporter.write_line(
            f"fuzz: {sum(GENERATED.values())} generated inputs answered ({by_function})"
        )
