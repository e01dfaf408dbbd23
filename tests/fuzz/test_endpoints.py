"""Bad input against every function's HTTP endpoint: always 400 or 204, never 5xx, no write.

Hypothesis draws raw bytes, malformed structured events and near-miss binary events about the
objects of a settled sandbox (`world`), and posts each to the function's Flask test client. Every
answer must be 204 with no body, or 400 with a short reason; the store's resourceVersion must not
move (nothing was written). Derandomized, so CI sees the same inputs on every run.
"""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.fuzz import strategies
from tests.fuzz.count import GENERATED
from tests.fuzz.world import FUNCTIONS, Fuzzed, revision
from tests.support import harness

EXAMPLES = 2100
"""Per function (five of them): 10,500 inputs in all, the figure README's guarantees give.
Derandomized, so every run posts the same inputs; drawing them (not the functions) is most of
the cost."""
BATCH = 10
"""Inputs per Hypothesis example: the engine's own work (recording, mutating, replaying) is
per example, so ten inputs an example cost it a tenth; every input is still posted and
checked alone."""

FUZZ = settings(
    max_examples=EXAMPLES // BATCH,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def check_answer(client: FlaskClient, request: strategies.Request) -> None:
    response = client.post("/", headers=request.headers, data=request.body)
    status, body = response.status_code, response.get_data(as_text=True)
    assert status in (204, 400), f"{status}: {body[:200]}"
    assert (status == 204) == (body == ""), body[:200]
    assert len(body) <= 300, "a 400 reason is one short line"


@pytest.mark.parametrize("function", [pytest.param(f, id=f) for f in FUNCTIONS])
def test_any_input_is_400_or_204_and_writes_nothing(world: Fuzzed, function: str) -> None:
    client, before = world.clients[function], revision(world.sandbox)

    @FUZZ
    @given(st.tuples(*[strategies.inputs(world.known)] * BATCH))  # a tuple: lists skew the mix
    def run(batch: tuple[strategies.Request, ...]) -> None:
        for request in batch:
            check_answer(client, request)
            GENERATED[function] += 1
            if revision(world.sandbox) != before:  # the audit is read only to explain a failure
                changed = [r for r in harness.writes(world.sandbox) if r.resource != "ipclaims"]
                pytest.fail(f"a bad input changed the API: {changed}")

    run()
    assert revision(world.sandbox) == before, "a bad input changed the API's state"
    assert GENERATED[function] >= EXAMPLES
