"""Fuzz fixtures: one settled sandbox for the module, and each test's count of generated inputs.

The count is printed at the end of the session by the top-level conftest (the issue asks for
the figure) so a run shows how many inputs the functions actually answered, not how many were
configured; it travels on the test reports, so it is right under pytest-xdist too.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import pytest

from tests.fuzz.count import GENERATED, report_share
from tests.fuzz.world import Fuzzed, fuzzed


@pytest.fixture(scope="module")
def world() -> Iterator[Fuzzed]:
    with fuzzed() as made:
        yield made


@pytest.fixture(autouse=True)
def _count_generated(request: pytest.FixtureRequest) -> Iterator[None]:
    before = Counter(GENERATED)
    yield
    report_share(request.node, before)
