"""The two delivery models of the sandbox broker (`BrokerMode`), over real HTTP.

SYNC is the installed default's: ingress answers once every Trigger delivery ended, retries and
dead letter included (202), or failed for good (500); so one sender's events arrive in series.
ASYNC answers 202 at once and delivers behind the sender's back.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import pytest
import urllib3
from cloudevents.core.bindings.http import to_binary_event
from cloudevents.core.v1.event import CloudEvent
from kubernetes import client

from dhcpless.tools.cli import build_parser
from dhcpless_sandbox.controllers.reflector import WatchedResource
from dhcpless_sandbox.demo.run import run_demo
from dhcpless_sandbox.eventing.broker import Broker
from dhcpless_sandbox.eventing.delivery import BrokerMode, Delivery
from dhcpless_sandbox.eventing.eventsource import ApiServerSource, SourceResource
from dhcpless_sandbox.eventing.triggers import Trigger
from dhcpless_sandbox.runtime.runner import FunctionService
from dhcpless_sandbox.runtime.world_settings import WorldSettings
from tests.world.apps import Answer, Scripted

WAIT = 30.0
"""Generous: the CI machine may be loaded."""


def event(name: str = "a") -> CloudEvent:
    attributes = {"type": "example", "source": "test", "subject": name}
    return CloudEvent(attributes=attributes, data={"name": name})


@pytest.fixture
def scripted() -> Iterator[list[Scripted]]:
    made: list[Scripted] = []
    yield made
    for item in made:
        item.stop()


def function(made: list[Scripted], script: list[Answer]) -> FunctionService:
    made.append(Scripted(script))
    return made[-1].service(f"fn{len(made)}")


@pytest.mark.parametrize(
    ("script", "dead_letter", "status", "attempts"),
    [
        pytest.param([Answer(503), Answer(204)], None, 202, 2, id="retried-then-delivered"),
        pytest.param([Answer(503)], [Answer(204)], 202, 3, id="dead-lettered-counts-as-done"),
        pytest.param([Answer(503)], None, 500, 3, id="failed-for-good-is-500"),
        pytest.param([Answer(400)], [Answer(503)], 500, 1, id="dead-letter-refused-is-500"),
    ],
)
def test_sync_ingress_answers_after_every_attempt(
    scripted: list[Scripted],
    script: list[Answer],
    dead_letter: list[Answer] | None,
    status: int,
    attempts: int,
) -> None:
    broker = Broker(mode=BrokerMode.SYNC)
    sink = function(scripted, dead_letter) if dead_letter else None
    broker.add_trigger(
        Trigger("t", function(scripted, script), delivery=Delivery(retry=2, dead_letter=sink))
    )
    try:
        assert broker.publish(event()) == status
        assert len(scripted[-1 if sink is None else 1].received) == attempts
        assert broker.wait_idle(0.0)
    finally:
        broker.stop()


@dataclass
class Gated:
    """A subscriber that holds every request until `gate` opens; `entered` says one is held."""

    inner: FunctionService
    gate: threading.Event = field(default_factory=threading.Event)
    entered: threading.Event = field(default_factory=threading.Event)

    @contextmanager
    def request(self) -> Iterator[str]:
        self.entered.set()
        assert self.gate.wait(WAIT)
        with self.inner.request() as url:
            yield url


@pytest.mark.parametrize(
    ("mode", "answered_before_delivery"),
    [
        pytest.param(BrokerMode.SYNC, False, id="sync-waits-for-the-delivery"),
        pytest.param(BrokerMode.ASYNC, True, id="async-answers-at-once"),
    ],
)
def test_http_ingress_answer_waits_in_sync_mode_only(
    scripted: list[Scripted], mode: BrokerMode, answered_before_delivery: bool
) -> None:
    broker = Broker(mode=mode)
    gated = Gated(function(scripted, [Answer(204)]))
    broker.add_trigger(Trigger("t", gated))
    url, answers = broker.start_http(), list[int]()
    message = to_binary_event(event())

    def post() -> None:
        answers.append(
            urllib3.request("POST", url, body=message.body, headers=message.headers).status
        )

    sender = threading.Thread(target=post, daemon=True)
    try:
        sender.start()
        assert gated.entered.wait(WAIT)
        sender.join(WAIT if answered_before_delivery else 0.2)
        assert (not sender.is_alive()) is answered_before_delivery
        gated.gate.set()
        sender.join(WAIT)
        assert answers == [202]
        assert broker.wait_idle(WAIT)
        assert len(scripted[0].received) == 1
    finally:
        gated.gate.set()
        broker.stop()


def test_sync_sender_delivers_in_series(scripted: list[Scripted]) -> None:
    """The head-of-line property: the second event waits for the first one's every retry."""
    broker = Broker(mode=BrokerMode.SYNC)
    fn = function(scripted, [Answer(503), Answer(503), Answer(204)])
    broker.add_trigger(Trigger("t", fn, delivery=Delivery(retry=3)))
    try:
        for name in ("first", "second"):
            assert broker.publish(event(name)) == 202
        assert [e.get_subject() for e in scripted[0].received] == ["first"] * 3 + ["second"]
    finally:
        broker.stop()


@pytest.mark.parametrize(
    "mode",
    [pytest.param(BrokerMode.SYNC, id="sync"), pytest.param(BrokerMode.ASYNC, id="async")],
)
def test_both_modes_fan_out_to_every_matching_trigger(
    scripted: list[Scripted], mode: BrokerMode
) -> None:
    broker = Broker(mode=mode)
    for name in ("one", "two", "three"):
        broker.add_trigger(Trigger(name, function(scripted, [Answer(204)])))
    try:
        assert broker.publish(event()) == 202
        assert broker.wait_idle(WAIT)
        assert [len(s.received) for s in scripted] == [1, 1, 1]
        assert broker.mode is mode
    finally:
        broker.stop()


@pytest.mark.parametrize(
    "mode",
    [pytest.param(BrokerMode.SYNC, id="sync"), pytest.param(BrokerMode.ASYNC, id="async")],
)
def test_demo_says_which_broker_it_used(
    mode: BrokerMode, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = WorldSettings(broker_mode=mode, idle_seconds=0.5)
    assert run_demo(2, json_output=True, deadline=WAIT, settings=settings) == 0
    summary = json.loads(capsys.readouterr().out)
    assert (summary["broker_mode"], summary["available"]) == (mode.value, 2)


@pytest.mark.parametrize(
    ("argv", "mode"),
    [
        pytest.param(["demo"], "sync", id="demo-default-sync"),
        pytest.param(["demo", "--broker", "async"], "async", id="demo-async"),
        pytest.param(["bench", "--broker", "async"], "async", id="bench-async"),
        pytest.param(["bench"], "sync", id="bench-default-sync"),
    ],
)
def test_cli_chooses_the_broker(argv: list[str], mode: str) -> None:
    assert build_parser().parse_args(argv).broker == mode
    assert BrokerMode(mode).value == mode


@dataclass
class Counting:
    """A subscriber that counts requests entering and holds each until `gate` opens."""

    inner: FunctionService
    gate: threading.Event = field(default_factory=threading.Event)
    entered: int = 0
    cond: threading.Condition = field(default_factory=threading.Condition)

    @contextmanager
    def request(self) -> Iterator[str]:
        with self.cond:
            self.entered += 1
            self.cond.notify_all()
        assert self.gate.wait(WAIT)
        with self.inner.request() as url:
            yield url

    def wait_entered(self, count: int) -> bool:
        return self.wait_entered_within(count, WAIT)

    def wait_entered_within(self, count: int, seconds: float) -> bool:
        with self.cond:
            return self.cond.wait_for(lambda: self.entered >= count, seconds)


@pytest.mark.parametrize(
    ("mode", "second_waits"),
    [
        pytest.param(BrokerMode.SYNC, True, id="sync-one-source-in-series"),
        pytest.param(BrokerMode.ASYNC, False, id="async-overtakes"),
    ],
)
def test_an_apiserversource_waits_for_each_delivery(
    api_client: client.ApiClient,
    scripted: list[Scripted],
    mode: BrokerMode,
    second_waits: bool,
) -> None:
    """The adapter sends one event at a time and waits (knative/eventing
    `pkg/adapter/apiserver/delegate.go`): under SYNC a held delivery holds the source."""
    broker = Broker(mode=mode)
    counting = Counting(function(scripted, [Answer(204)]))
    broker.add_trigger(Trigger("t", counting))
    watched = SourceResource(WatchedResource("v1", "ConfigMap", "configmaps", namespace="default"))
    source = ApiServerSource(api_client, [watched], broker.publish, source="test")
    core = client.CoreV1Api(api_client)
    try:
        source.start()
        assert source.wait_synced(WAIT)
        for name in ("first", "second"):
            config_map = client.V1ConfigMap(metadata=client.V1ObjectMeta(name=name))
            core.create_namespaced_config_map("default", config_map)
        assert counting.wait_entered(1)
        if second_waits:
            assert not counting.wait_entered_within(2, 0.3)
        else:
            assert counting.wait_entered(2)
        counting.gate.set()
        assert counting.wait_entered(2)
        assert broker.wait_idle(WAIT)
        names = [e.get_extension("name") for e in scripted[0].received]
        assert sorted(names) == ["first", "second"]
        assert not second_waits or names == ["first", "second"]  # in series: in order
    finally:
        counting.gate.set()
        source.stop()
        broker.stop()
