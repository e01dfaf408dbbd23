"""The bench's deadlines grow with the fleet (`bench.sizing`): a 5,000-host batch is given
several times what the measured rates need, and no deadline shrinks below a small run's."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from dhcpless_sandbox.bench import sizing

UNPAUSED_PER_SECOND, AVAILABLE_PER_SECOND = 15.0, 10.0
"""Measured at 500 to 2,000 hosts under the synchronous broker on the 2-core machine."""


@pytest.mark.parametrize(
    ("deadline", "needed"),
    [
        pytest.param(sizing.unpause_seconds, lambda n: n / UNPAUSED_PER_SECOND, id="unpause"),
        pytest.param(sizing.settle_seconds, lambda n: n / AVAILABLE_PER_SECOND, id="settle"),
    ],
)
def test_deadlines_cover_a_large_batch_several_times(
    deadline: Callable[[int], float], needed: Callable[[int], float]
) -> None:
    for hosts in (100, 1000, 5000, 10000):
        assert deadline(hosts) >= 3 * needed(hosts)
    assert deadline(5000) > deadline(500) >= deadline(1)


def test_the_rest_deadline_grows_with_the_fleet() -> None:
    assert sizing.rest_seconds(5000) > sizing.rest_seconds(500) >= 300
