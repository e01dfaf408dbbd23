"""The stand-ins' work queue (`sandbox.controllers.workqueue`): keys come out in due order,
the earliest due time wins, a key is never handled twice at once, and a key added while its
worker handles it is handled again once that worker is done (its heap entry set aside)."""

from __future__ import annotations

import threading

import pytest

from dhcpless_sandbox.controllers.workqueue import WorkQueue
from tests.support.waits import event_set, eventually


@pytest.mark.parametrize(
    ("adds", "order"),
    [
        pytest.param([("a", 0.2), ("b", 0.1), ("c", 0.0)], ["c", "b", "a"], id="by-due-time"),
        pytest.param([("a", 0.0), ("b", 0.0), ("c", 0.0)], ["a", "b", "c"], id="ties-in-order"),
        pytest.param([("a", 0.3), ("b", 0.1), ("a", 0.0)], ["a", "b"], id="earliest-wins"),
        pytest.param([("a", 0.0), ("b", 0.1), ("a", 0.5)], ["a", "b"], id="later-ignored"),
    ],
)
def test_keys_come_out_in_due_order(adds: list[tuple[str, float]], order: list[str]) -> None:
    handled: list[str] = []
    queue: WorkQueue[str] = WorkQueue("test", lambda key: handled.append(key))
    for key, after in adds:
        queue.add(key, after)
    queue.start()
    try:
        eventually(lambda: len(handled) >= len(order), 5, "every key handled")
        assert handled == order
    finally:
        queue.stop()


def test_a_key_added_while_busy_is_handled_again_after() -> None:
    entered, release = threading.Event(), threading.Event()
    handled: list[str] = []
    running = {"now": 0, "most": 0}

    def handle(key: str) -> None:
        running["now"] += 1
        running["most"] = max(running["most"], running["now"])
        handled.append(key)
        if len(handled) == 1:
            entered.set()
            release.wait(5)
        running["now"] -= 1

    queue: WorkQueue[str] = WorkQueue("test", handle, workers=2)
    queue.add("a")
    queue.start()
    try:
        event_set(entered, 5, "the first handling")
        queue.add("a")  # while busy: the other worker must not take it
        queue.add("b")
        eventually(lambda: "b" in handled, 5, "the other key handled meanwhile")
        assert handled == ["a", "b"]
        release.set()
        eventually(lambda: handled.count("a") == 2, 5, "the key handled again")
        assert running["most"] <= 2 and handled == ["a", "b", "a"]
    finally:
        release.set()
        queue.stop()
