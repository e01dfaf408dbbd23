"""The two broker models side by side: one sender, many events, one subscriber over HTTP.

Reports the synchronous model's time against the asynchronous one measured in the same run
(a ratio, never a timed assert): one sender delivering in series pays every delivery's round
trip, the asynchronous model overlaps them on its pool but pays a thread hand-off per event.
With a subscriber that answers at once the two are close (either may win); what
the synchronous model serializes at scale is the handlers' own latency (README "Performance").

Run with `python3 scripts/dev.py bench` (or pytest -m bench benchmarks/).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from cloudevents.core.v1.event import CloudEvent
from flask import Flask, Response

from dhcpless_sandbox.eventing.broker import Broker
from dhcpless_sandbox.eventing.delivery import BrokerMode
from dhcpless_sandbox.eventing.triggers import Trigger
from dhcpless_sandbox.runtime.runner import FunctionService

pytestmark = pytest.mark.bench

EVENTS = 200


def _app() -> Flask:
    app = Flask("subscriber")

    @app.post("/")
    def receive() -> Response:
        return Response(status=204)

    return app


@pytest.fixture
def service() -> Iterator[FunctionService]:
    made = FunctionService("subscriber", _app, 60.0)
    yield made
    made.stop()


def _seconds(mode: BrokerMode, service: FunctionService) -> float:
    broker = Broker(mode=mode, workers=8)
    broker.add_trigger(Trigger("t", service))
    event = CloudEvent(attributes={"type": "t", "source": "s"}, data={"n": 1})
    try:
        assert broker.publish(event) == 202  # warm: the service starts on the first event
        assert broker.wait_idle(60.0)
        started = time.perf_counter()
        for _ in range(EVENTS):
            assert broker.publish(event) == 202
        assert broker.wait_idle(60.0)
        return time.perf_counter() - started
    finally:
        broker.stop()


def test_sync_against_async(service: FunctionService, benchmark: Any) -> None:
    asynchronous = _seconds(BrokerMode.ASYNC, service)
    synchronous = benchmark.pedantic(_seconds, args=(BrokerMode.SYNC, service), rounds=1)
    ratio = synchronous / asynchronous
    print(f"\n{EVENTS} events, one sender: sync {synchronous:.3f}s, async {asynchronous:.3f}s, "
          f"ratio {ratio:.2f}")  # fmt: skip
    assert service.invocations == 2 * (EVENTS + 1)
    assert ratio > 0
