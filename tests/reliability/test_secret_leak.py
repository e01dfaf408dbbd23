"""Secrets stay secret: a whole run leaks no network data, and a planted leak is caught.

The embedded world runs a few hosts to `available` while every channel is captured (logs at
DEBUG for our code, every CloudEvent the broker accepted, every function answer, core/v1 Events,
dead letters); then each of our Secrets' content is searched for in all of them. The second
test plants a log line with the rendered document in the chain and expects the detector to
report it, so the first test's silence means something.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

from dhcpless.chain import act as chain_act
from dhcpless.chain.actions import Action, WriteSecret
from dhcpless_sandbox.demo.inventory import NAMESPACE, create, inventory
from dhcpless_sandbox.demo.report import HostRow, observe
from dhcpless_sandbox.runtime.world import World
from dhcpless_sandbox.runtime.world_settings import WorldSettings
from tests.reliability import leak
from tests.support.waits import eventually, seconds

pytestmark = pytest.mark.e2e
HOSTS = 3


def _run(captured: leak.Captured) -> dict[str, list[str]]:
    """Run HOSTS hosts to `available` with every channel tapped; the channels' texts."""
    world = World(WorldSettings(resync_seconds=1.0, idle_seconds=1.0))
    leak.tap_broker(world, captured)
    with leak.capture_logs(captured):
        world.start()
        try:
            leak.tap_answers(world, captured)
            api = world.api_client()
            create(api, inventory(HOSTS))
            _wait_available(world)
            world.broker.wait_idle(seconds(10))
            found = leak.needles(api, NAMESPACE)
            assert len(found) == 4 * HOSTS
            channels = {
                "logs": captured.logs,
                "cloudevents": captured.events,
                "answers": captured.answers,
                "kube-events": leak.kube_events(api, NAMESPACE),
                "dead-letters": [str(d) for d in world.dead_letters.received],
            }
        finally:
            world.stop()
    assert captured.events and captured.logs
    return {"__needles__": found, **channels}


def _wait_available(world: World) -> None:
    api = world.api_client()

    def rows() -> list[HostRow] | None:
        found = observe(api)
        done = len(found) == HOSTS and all(r.state == "available" for r in found)
        return found if done else None

    eventually(rows, 30, "every host available")


def _search(channels: dict[str, list[str]]) -> list[str]:
    found = channels.pop("__needles__")
    return leak.leaks(channels, found)


def test_no_secret_content_leaves_the_secret() -> None:
    channels = _run(leak.Captured())
    assert all(channels[name] for name in ("logs", "cloudevents", "answers", "kube-events"))
    assert _search(channels) == []


@pytest.fixture
def planted_leak(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The chain logs the rendered document when it writes a Secret (a bug on purpose)."""
    perform = chain_act.perform

    def leaky(action: Action, *args: object) -> None:
        if isinstance(action, WriteSecret):
            logging.getLogger("dhcpless.chain.act").info("wrote %s", action.network_data)
        perform(action, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(chain_act, "perform", leaky)
    yield


@pytest.mark.usefixtures("planted_leak")
def test_a_planted_leak_is_caught() -> None:
    found = _search(_run(leak.Captured()))
    assert found and all(line.startswith("logs: ") for line in found)
