"""`LiveHosts`: the judges' set of live hosts, kept from a reflector's lists and watch events.

Covers: a LIST replaces the set (a host deleted while the watch was down is gone after the
relist); ADDED and MODIFIED add a host unless it is being deleted; a deletionTimestamp or a
DELETED event removes it.
"""

from __future__ import annotations

from typing import Any

import pytest

from dhcpless_sandbox.controllers.reflector import WatchEvent
from dhcpless_sandbox.observe.live import LiveHosts

Obj = dict[str, Any]


def _host(name: str, deleting: bool = False) -> Obj:
    meta: Obj = {"name": name}
    if deleting:
        meta["deletionTimestamp"] = "2026-01-01T00:00:00Z"
    return {"metadata": meta}


@pytest.mark.parametrize(
    ("events", "expected"),
    [
        pytest.param([], {"a", "b"}, id="as-listed-without-the-deleting-one"),
        pytest.param([(WatchEvent.ADDED, _host("d"))], {"a", "b", "d"}, id="added"),
        pytest.param([(WatchEvent.MODIFIED, _host("a", True))], {"b"}, id="now-deleting"),
        pytest.param([(WatchEvent.DELETED, _host("b"))], {"a"}, id="deleted"),
        pytest.param(
            [(WatchEvent.DELETED, _host("c")), (WatchEvent.MODIFIED, _host("c", True))],
            {"a", "b"},
            id="a-deleting-one-stays-out",
        ),
    ],
)
def test_events_after_a_list(events: list[tuple[WatchEvent, Obj]], expected: set[str]) -> None:
    live = LiveHosts()
    live.listed([_host("a"), _host("b"), _host("c", deleting=True)])
    for kind, host in events:
        live.changed(kind, host)
    assert live.names() == expected


def test_a_relist_replaces_what_the_watch_missed() -> None:
    live = LiveHosts()
    live.listed([_host("a"), _host("b")])
    live.listed([_host("b")])  # "a" was deleted while the watch was down
    assert live.names() == {"b"}
