"""Broker and Trigger semantics over real HTTP (knative.md §c).

Covers: retry on 503 until success, no retry on 400, dead letter after the last attempt with
the knativeerror* extensions, a 2xx plain body treated as 502 and retried, reply events
published back through the filters, the filter dialects (exact/prefix/suffix/all/any/not,
legacy attributes, `filters` winning), backoff arithmetic, and scale-to-zero bookkeeping.
"""

from __future__ import annotations

import base64
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from cloudevents.core.v1.event import CloudEvent

from dhcpless_sandbox.eventing.broker import Broker
from dhcpless_sandbox.eventing.delivery import (
    BackoffPolicy,
    Delivery,
    Outcome,
    classify,
    parse_duration,
)
from dhcpless_sandbox.eventing.filters import trigger_filter
from dhcpless_sandbox.eventing.triggers import Trigger
from tests.support.waits import seconds
from tests.world.apps import Answer, Scripted


def event(
    type_: str = "dev.knative.apiserver.resource.update", kind: str = "BareMetalHost"
) -> CloudEvent:
    attributes = {
        "type": type_,
        "source": "https://sandbox",
        "kind": kind,
        "datacontenttype": "application/json",
    }
    return CloudEvent(attributes=attributes, data={"hello": "world"})


def run(broker: Broker, *events: CloudEvent) -> None:
    for item in events:
        assert broker.publish(item) == 202
    assert broker.wait_idle(seconds(10))


@pytest.fixture
def broker() -> Iterator[Broker]:
    created = Broker(workers=4)
    yield created
    created.stop()


Make = Callable[[list[Answer]], Scripted]


@pytest.fixture
def make() -> Iterator[Make]:
    """Scripted functions whose servers are stopped after the test."""
    made: list[Scripted] = []

    def create(script: list[Answer]) -> Scripted:
        made.append(Scripted(script))
        return made[-1]

    yield create
    for scripted in made:
        scripted.stop()


@pytest.mark.parametrize(
    ("script", "retry", "attempts", "dead_letter_code"),
    [
        pytest.param([Answer(503), Answer(503), Answer(204)], 5, 3, None, id="503-retried-then-ok"),
        pytest.param([Answer(400, "bad")], 5, 1, "400", id="400-not-retried"),
        pytest.param([Answer(503)], 2, 3, "503", id="dead-letter-after-last-try"),
        pytest.param([Answer(200, "ok")], 1, 2, "502", id="2xx-plain-body-is-502"),
        pytest.param(
            [Answer(404), Answer(409), Answer(429), Answer(202)],
            3,
            4,
            None,
            id="404-409-429-retried",
        ),
        pytest.param([Answer(503)], 0, 1, "503", id="unset-retry-means-one-attempt"),
    ],
)
def test_delivery(
    broker: Broker,
    make: Make,
    script: list[Answer],
    retry: int,
    attempts: int,
    dead_letter_code: str | None,
) -> None:
    function, dead = make(script), make([Answer(204)])
    delivery = Delivery(retry=retry, dead_letter=dead.service("dls"))
    broker.add_trigger(Trigger("t", function.service(), delivery=delivery))
    run(broker, event())
    assert len(function.received) == attempts
    assert [e.get_extension("knativeerrorcode") for e in dead.received] == (
        [dead_letter_code] if dead_letter_code else []
    )


def test_dead_letter_carries_the_error(broker: Broker, make: Make) -> None:
    function, dead = make([Answer(400, "no thanks")]), make([Answer(204)])
    service = function.service()
    broker.add_trigger(Trigger("t", service, delivery=Delivery(dead_letter=dead.service("dls"))))
    original = event()
    run(broker, original)
    (letter,) = dead.received
    assert letter.get_id() == original.get_id()
    assert letter.get_extension("knativeerrordest").startswith("http://127.0.0.1:")
    assert base64.b64decode(letter.get_extension("knativeerrordata")) == b"no thanks"


def test_exponential_backoff_waits(broker: Broker, make: Make) -> None:
    function = make([Answer(503), Answer(503), Answer(204)])
    delivery = Delivery(retry=2, backoff_policy=BackoffPolicy.EXPONENTIAL, backoff_delay=0.05)
    broker.add_trigger(Trigger("t", function.service(), delivery=delivery))
    started = time.monotonic()
    run(broker, event())
    assert time.monotonic() - started >= 0.05 + 0.1
    assert len(function.received) == 3


def test_reply_is_published_back(broker: Broker, make: Make) -> None:
    first = make([Answer(reply_type="example.reply")])
    second = make([Answer(204)])
    broker.add_trigger(
        Trigger(
            "first",
            first.service("a"),
            trigger_filter({"filter": {"attributes": {"kind": "BareMetalHost"}}}),
        )
    )
    broker.add_trigger(
        Trigger(
            "second",
            second.service("b"),
            trigger_filter({"filters": [{"exact": {"type": "example.reply"}}]}),
        )
    )
    run(broker, event())
    assert [e.get_type() for e in second.received] == ["example.reply"]
    assert broker.stats.replies == 1


def test_reply_loop_is_bounded_by_ttl(broker: Broker, make: Make) -> None:
    looping = make([Answer(reply_type="loop")])
    broker.add_trigger(Trigger("loop", looping.service(), trigger_filter({})))
    run(broker, event(type_="loop"))
    assert len(looping.received) == 255
    assert broker.stats.dropped == 1


def test_binary_mode_and_headers(broker: Broker, make: Make) -> None:
    function = make([Answer(204)])
    broker.add_trigger(Trigger("t", function.service()))
    run(broker, event())
    (got,) = function.received
    assert got.get_extension("kind") == "BareMetalHost"
    assert got.get_extension("knativearrivaltime")
    assert got.get_data() == {"hello": "world"}


ATTRS = {
    "type": "dev.knative.apiserver.resource.update",
    "kind": "BareMetalHost",
    "source": "https://10.96.0.1:443",
    "namespace": "",
}


@pytest.mark.parametrize(
    ("spec", "matches"),
    [
        pytest.param({}, True, id="no-filter-passes-all"),
        pytest.param(
            {"filter": {"attributes": {"kind": "BareMetalHost"}}}, True, id="legacy-exact"
        ),
        pytest.param(
            {"filter": {"attributes": {"kind": "baremetalhost"}}}, False, id="legacy-case-sensitive"
        ),
        pytest.param({"filter": {"attributes": {"missing": "x"}}}, False, id="legacy-missing"),
        pytest.param(
            {"filter": {"attributes": {"kind": ""}}}, True, id="legacy-empty-means-present"
        ),
        pytest.param(
            {"filter": {"attributes": {"namespace": ""}}}, False, id="legacy-empty-needs-non-empty"
        ),
        pytest.param(
            {"filters": [{"exact": {"type": ATTRS["type"]}}, {"exact": {"kind": "IPClaim"}}]},
            False,
            id="filters-anded",
        ),
        pytest.param(
            {
                "filters": [
                    {"prefix": {"type": "dev.knative.apiserver.resource."}},
                    {"suffix": {"kind": "Host"}},
                ]
            },
            True,
            id="prefix-suffix",
        ),
        pytest.param(
            {
                "filters": [
                    {"any": [{"exact": {"kind": "IPClaim"}}, {"exact": {"kind": "BareMetalHost"}}]}
                ]
            },
            True,
            id="any",
        ),
        pytest.param(
            {
                "filters": [
                    {"all": [{"exact": {"kind": "BareMetalHost"}}, {"exact": {"type": "x"}}]}
                ]
            },
            False,
            id="all",
        ),
        pytest.param({"filters": [{"not": {"exact": {"kind": "BareMetalHost"}}}]}, False, id="not"),
        pytest.param(
            {
                "filters": [{"exact": {"kind": "IPClaim"}}],
                "filter": {"attributes": {"kind": "BareMetalHost"}},
            },
            False,
            id="filters-win-over-filter",
        ),
    ],
)
def test_filters(spec: dict[str, Any], matches: bool) -> None:
    assert trigger_filter(spec)(ATTRS) is matches


@pytest.mark.parametrize(
    "spec",
    [
        pytest.param(
            {"filters": [{"exact": {"kind": "a"}, "suffix": {"kind": "b"}}]},
            id="two-dialects-in-one-entry",
        ),
        pytest.param({"filters": [{"exact": {"kind": ""}}]}, id="empty-value"),
        pytest.param({"filters": [{"cesql": "kind = 'a'"}]}, id="cesql-unsupported"),
    ],
)
def test_invalid_filters(spec: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        trigger_filter(spec)


@pytest.mark.parametrize(
    ("spec", "delays"),
    [
        pytest.param(
            {"retry": 3, "backoffPolicy": "exponential", "backoffDelay": "PT0.2S"},
            [0.2, 0.4, 0.8],
            id="exponential",
        ),
        pytest.param(
            {"retry": 3, "backoffPolicy": "linear", "backoffDelay": "PT1S"},
            [0.0, 1.0, 2.0],
            id="linear-first-retry-immediate",
        ),
        pytest.param({"retry": 2, "backoffPolicy": "exponential"}, [0.0, 0.0], id="policy-alone"),
        pytest.param({"retry": 2, "backoffDelay": "PT1S"}, [0.0, 0.0], id="delay-alone"),
    ],
)
def test_backoff(spec: dict[str, Any], delays: list[float]) -> None:
    delivery = Delivery.from_spec(spec)
    assert [delivery.delay(n) for n in range(delivery.retry)] == pytest.approx(delays)


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        pytest.param("PT0.2S", 0.2, id="fraction"),
        pytest.param("PT2M", 120.0, id="minutes"),
        pytest.param("P1DT1H", 90000.0, id="days-hours"),
    ],
)
def test_parse_duration(text: str, seconds: float) -> None:
    assert parse_duration(text) == pytest.approx(seconds)


@pytest.mark.parametrize("text", [pytest.param("0.2", id="bare"), pytest.param("PT", id="empty")])
def test_parse_duration_rejects(text: str) -> None:
    with pytest.raises(ValueError):
        parse_duration(text)


@pytest.mark.parametrize(
    ("status", "body", "is_event", "outcome"),
    [
        pytest.param(204, b"", False, Outcome.SUCCESS, id="204"),
        pytest.param(200, b"ok", False, Outcome.RETRY, id="200-plain"),
        pytest.param(200, b"{}", True, Outcome.SUCCESS, id="200-event"),
        pytest.param(0, b"", False, Outcome.RETRY, id="network-error"),
        pytest.param(408, b"", False, Outcome.RETRY, id="408"),
        pytest.param(422, b"", False, Outcome.FAIL, id="422"),
        pytest.param(302, b"", False, Outcome.FAIL, id="3xx"),
    ],
)
def test_classify(status: int, body: bytes, is_event: bool, outcome: Outcome) -> None:
    assert classify(status, body, is_event) is outcome


def test_scale_to_zero_counts_cold_starts(make: Make) -> None:
    function = make([Answer(204)])
    service = function.service(idle=0.0)
    with service.request():
        assert service.running
    assert service.reap(time.monotonic())
    with service.request():
        pass
    assert (service.cold_starts, service.invocations) == (2, 2)
    service.stop()
    assert not service.running
