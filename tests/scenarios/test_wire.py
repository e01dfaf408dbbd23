"""`duplicate_on_wire` (`sandbox.wire.duplicates`): an address configured by two live machines
counts; one live and one gone does not; prefixes do not hide a duplicate."""

from __future__ import annotations

import pytest

from dhcpless.sandbox.wire import duplicates


@pytest.mark.parametrize(
    ("machines", "live", "expected"),
    [
        pytest.param({"a": ("10.0.0.5",), "b": ("10.0.0.6",)}, {"a", "b"}, set(), id="distinct"),
        pytest.param({"a": ("10.0.0.5",), "b": ("10.0.0.5",)}, {"a", "b"}, {"10.0.0.5"},
                     id="two-live-one-address"),
        pytest.param({"a": ("10.0.0.5",), "b": ("10.0.0.5",)}, {"a"}, set(), id="one-gone"),
        pytest.param({"a": ("10.0.0.5/24",), "b": ("10.0.0.5",)}, {"a", "b"}, {"10.0.0.5"},
                     id="with-prefix"),
    ],
)  # fmt: skip
def test_duplicates(
    machines: dict[str, tuple[str, ...]], live: set[str], expected: set[str]
) -> None:
    assert duplicates(machines, live) == expected
