"""The parallel suite starts its longest units first, and the list of them stays true."""

from __future__ import annotations

import pytest

from conftest import KEPT_TOGETHER, LONGEST_FIRST, REPO_ROOT
from tests.support.scheduling import longest_first


@pytest.mark.parametrize(
    ("units", "first", "expected"),
    [
        pytest.param(
            ["a::x", "b::y", "c"], ("c",), ["c", "a::x", "b::y"], id="a-long-unit-moves-up"
        ),
        pytest.param(
            ["a::1", "b", "a::2", "c"],
            ("c", "a::"),
            ["c", "a::1", "a::2", "b"],
            id="in-the-listed-order-and-stable-within",
        ),
        pytest.param(["a", "b"], ("z",), ["a", "b"], id="nothing-listed-nothing-moves"),
        pytest.param([], ("a",), [], id="no-units"),
    ],
)
def test_longest_first(units: list[str], first: tuple[str, ...], expected: list[str]) -> None:
    assert longest_first(units, first) == expected


@pytest.mark.parametrize("entry", [pytest.param(e, id=e) for e in (*LONGEST_FIRST, *KEPT_TOGETHER)])
def test_every_scheduling_entry_names_a_test_file(entry: str) -> None:
    """A renamed file would silently lose its place at the front (or its module fixture)."""
    assert (REPO_ROOT / entry.split("::", 1)[0]).is_file(), entry
