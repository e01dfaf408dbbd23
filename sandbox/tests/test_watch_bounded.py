"""Bounded watches: the watcher that does not keep up is closed, as the API server's cacher does.

k8s.io/apiserver `pkg/storage/cacher/cache_watcher.go` `add`: each watcher has a small buffer;
when it is still full as an event comes (after a budget of at most 100 ms), the watcher is
stopped: what it buffered is sent, then its stream ends. The client re-watches from the last
resourceVersion it saw; once the history no longer reaches back that far the answer is 410 Gone
(`store.Store.watch`) and the client must relist. `Store.watch_limit` sets the buffer; None (the
default) keeps every watcher's queue unbounded.
"""

from __future__ import annotations

import pytest

from dhcpless_sandbox.apiserver.status import ApiError
from dhcpless_sandbox.apiserver.store import Event, Store, Watcher

KEY = ("metal3.io", "baremetalhosts")


def _write(store: Store, n: int, start: int = 0) -> None:
    for i in range(start, start + n):
        obj = {"metadata": {"name": f"h{i}", "namespace": "ns", "uid": f"u{i}"}}
        store.put(KEY, obj, None)


def _drain(watcher: Watcher) -> list[str | None]:
    found: list[str | None] = []
    while not watcher.events.empty():
        event = watcher.events.get_nowait()
        found.append(None if event is None else event.object["metadata"]["name"])
    return found


@pytest.mark.parametrize(
    ("limit", "written", "delivered", "closed"),
    [
        pytest.param(None, 8, [f"h{i}" for i in range(8)], 0, id="unbounded"),
        pytest.param(5, 5, [f"h{i}" for i in range(5)], 0, id="full-but-kept"),
        pytest.param(5, 8, [*(f"h{i}" for i in range(5)), None], 1, id="one-more-closes"),
    ],
)
def test_a_watcher_that_falls_behind_is_closed(
    limit: int | None, written: int, delivered: list[str | None], closed: int
) -> None:
    store = Store(watch_limit=limit)
    watcher = Watcher(KEY, None, limit=store.watch_limit)
    store.watch(watcher, None)
    _write(store, written)
    assert _drain(watcher) == delivered  # what it buffered is still sent, then the end (None)
    assert store.closed_watchers == closed
    _write(store, 1, start=100)
    assert _drain(watcher) == ([] if closed else ["h100"])  # a closed watcher gets nothing more


def test_rewatch_after_the_history_moved_on_is_410() -> None:
    """The client's re-watch from the last resourceVersion it saw: what the closed watcher
    missed is replayed while the history has it, else 410 Gone ("too old resource version")
    and the client must relist."""
    store = Store(history=4, watch_limit=2)
    watcher = Watcher(KEY, None, limit=2)
    store.watch(watcher, None)
    _write(store, 3)  # h2 finds the buffer full: closed after h0, h1
    seen = [e for e in _events(watcher) if e is not None]
    assert [e.object["metadata"]["name"] for e in seen] == ["h0", "h1"]
    last = seen[-1].rv
    _write(store, 1, start=10)
    replayed = store.watch(Watcher(KEY, None), last)
    assert [e.object["metadata"]["name"] for e in replayed] == ["h2", "h10"]
    _write(store, 6, start=20)
    with pytest.raises(ApiError) as caught:
        store.watch(Watcher(KEY, None), last)
    assert caught.value.status().get("code") == 410


def _events(watcher: Watcher) -> list[Event | None]:
    found: list[Event | None] = []
    while not watcher.events.empty():
        found.append(watcher.events.get_nowait())
    return found
