"""The one reflector (`kube.cache.reflector`): what a broken stream costs is its policy's.

The watch cache's informers list again after a broken stream (client-go's `ListAndWatch`
returns); the sandbox's controllers and event sources (`sandbox.controllers.reflector`, the
same class with the stand-ins' policy) watch again from the last version and list again only
when that version expired. Either way the next change arrives as an event.
"""

from __future__ import annotations

import pytest

from dhcpless.kube.api import resources
from dhcpless.kube.cache import watchstream
from dhcpless.kube.cache.reflector import Policy, Reflector
from dhcpless_sandbox.apiserver.server import SandboxServer
from dhcpless_sandbox.controllers import reflector as sandbox
from tests.support import objects
from tests.support.waits import eventually
from tests.unit.kube.cache_support import NS, break_first_watch, create

Seen = tuple[str, str]


class Recording(Reflector):
    """IPPools of the namespace: each LIST's names and each event, in order."""

    def __init__(self, world: SandboxServer, policy: Policy) -> None:
        super().__init__(world.api_client(), resources.IPPOOLS, NS, policy=policy)
        self.seen: list[Seen] = []

    def _listed(self, listed: watchstream.Listed) -> None:
        self.seen += [("LIST", str(o["metadata"]["name"])) for o in listed.items]

    def _event(self, event: watchstream.WatchEvent) -> None:
        self.seen.append((event.type, str(event.object["metadata"]["name"])))


def test_the_sandbox_stands_on_the_same_reflector() -> None:
    assert issubclass(sandbox.Reflector, Reflector)
    assert sandbox.POLICY.give_up == frozenset() and not sandbox.POLICY.relist_after_broken_watch


@pytest.mark.parametrize(
    ("policy", "lists"),
    [
        pytest.param(Policy(backoff_first=0.05), 2, id="informer-lists-again"),
        pytest.param(sandbox.POLICY, 1, id="sandbox-watches-again"),
    ],
)
def test_a_broken_stream(
    world: SandboxServer, monkeypatch: pytest.MonkeyPatch, policy: Policy, lists: int
) -> None:
    calls = break_first_watch(monkeypatch)
    reflector = Recording(world, policy)
    reflector.start()
    try:
        eventually(lambda: len(calls) >= 2 and reflector.lists == lists, 10, "watching again")
        create(world, objects.pool("pool-new", "10.0.9.10", "10.0.9.20", 24, "10.0.9.1", []))
        eventually(lambda: ("ADDED", "pool-new") in reflector.seen, 10, "the change as an event")
        assert reflector.seen[0] == ("LIST", "pool4")
        assert (reflector.lists, reflector.expired, reflector.disabled) == (lists, 0, False)
    finally:
        reflector.stop()
