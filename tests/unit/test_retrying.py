"""`dhcpless.serving.retrying`: per-host transient failures are retried in-process within a
bound, then end as `Deferred` (an outcome); an unavailable API and anything else pass straight
through."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from dhcpless import errors
from dhcpless.kube.transport.errors import ApiUnavailable, Conflict, PreconditionFailed
from dhcpless.serving.retrying import Deferred, RetryBound, retrying

BOUND = RetryBound(attempts=4, delay=0.5, jitter=0.1)


def flaky(failures: list[Exception]) -> tuple[list[int], Callable[[int], None]]:
    """A handler that raises `failures` in turn, then succeeds; records each call."""
    calls: list[int] = []

    def handler(event: int) -> None:
        calls.append(event)
        if len(calls) <= len(failures):
            raise failures[len(calls) - 1]

    return calls, handler


@pytest.mark.parametrize(
    ("failures", "calls", "raised"),
    [
        pytest.param([], 1, None, id="success-once"),
        pytest.param([Conflict("409")], 2, None, id="conflict-then-success"),
        pytest.param([PreconditionFailed("test op")] * 3, 4, None, id="last-attempt-succeeds"),
        pytest.param([Conflict("409")] * 4, 4, Deferred, id="bound-spent-is-deferred"),
        pytest.param([errors.Transient("not yet")] * 9, 4, Deferred, id="plain-transient"),
        pytest.param([ApiUnavailable("down")], 1, ApiUnavailable, id="unavailable-not-retried"),
        pytest.param([errors.InvalidInput("bad")], 1, errors.InvalidInput, id="invalid"),
        pytest.param([errors.Gone("gone")], 1, errors.Gone, id="outcome-passes"),
        pytest.param([KeyError("bug")], 1, KeyError, id="unexpected-passes"),
    ],
)
def test_retry_bound(failures: list[Exception], calls: int, raised: type[Exception] | None) -> None:
    made, handler = flaky(failures)
    waits: list[float] = []
    run = retrying(handler, BOUND, sleep=waits.append)
    if raised is None:
        run(7)
    else:
        with pytest.raises(raised):
            run(7)
    assert made == [7] * calls
    assert len(waits) == calls - 1  # a wait between attempts, none after the last
    assert all(0.5 <= w <= 0.55 for w in waits)


def test_deferred_is_an_outcome_that_keeps_the_reason() -> None:
    _, handler = flaky([Conflict("update BareMetalHost ns/h1: 409 Conflict")] * 5)
    with pytest.raises(Deferred) as info:
        retrying(handler, BOUND, sleep=lambda _: None)(1)
    assert isinstance(info.value, errors.Outcome)
    assert "409 Conflict" in info.value.reason and "4 attempts" in info.value.reason
    assert isinstance(info.value.__cause__, Conflict)
