"""One large document at a time per process (`kube.transport.large`), and the watch stream's lines.

Covers: while a large document is held, another large one waits and a small one goes on; the
lock is taken again by the thread that holds it; a watch stream's long line split over many
chunks comes out whole, and an event's object passes through `keep` (bookmarks as they are).
"""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest

from dhcpless.kube.cache import watchstream
from dhcpless.kube.transport import large
from tests.support.waits import event_set, stays

BIG, SMALL = large.LARGE_BYTES, large.LARGE_BYTES - 1


@pytest.mark.parametrize(
    ("size", "waits"),
    [pytest.param(BIG, True, id="large-waits"), pytest.param(SMALL, False, id="small-goes-on")],
)
def test_a_large_document_waits_for_the_one_held(size: int, waits: bool) -> None:
    entered = threading.Event()

    def other() -> None:
        with large.one_at_a_time(size):
            entered.set()

    with large.one_at_a_time(BIG):
        thread = threading.Thread(target=other, daemon=True)
        thread.start()
        if waits:
            stays(lambda: not entered.is_set(), 0.3, "the second large document waits")
        else:
            event_set(entered, 5)
    event_set(entered, 5)
    thread.join(5)


def test_the_holder_may_decode_another_large_document() -> None:
    with large.one_at_a_time(BIG), large.one_at_a_time(BIG):
        pass  # no deadlock: the lock is re-entrant


class _Stream:
    """A urllib3-like response whose body arrives in the given chunks."""

    def __init__(self, chunks: list[bytes]) -> None:
        self.chunks = chunks

    def stream(self, _size: int, decode_content: bool) -> list[bytes]:
        return self.chunks


class _Response:
    def __init__(self, chunks: list[bytes]) -> None:
        self.response = _Stream(chunks)


def _cut(body: bytes, size: int) -> list[bytes]:
    return [body[i : i + size] for i in range(0, len(body), size)]


@pytest.mark.parametrize(
    "size", [pytest.param(1, id="bytewise"), pytest.param(7, id="odd"), pytest.param(4096, id="4k")]
)
def test_lines_come_out_whole_whatever_the_chunks(size: int) -> None:
    events: list[dict[str, Any]] = [
        {"type": "ADDED", "object": {"metadata": {"name": "a"}, "status": {"i": "x" * 9000}}},
        {"type": "BOOKMARK", "object": {"metadata": {"resourceVersion": "9"}}},
        {"type": "MODIFIED", "object": {"metadata": {"name": "b"}}},
    ]
    body = b"\n\n".join(json.dumps(e).encode() for e in events)  # blank lines are skipped
    lines = list(watchstream._lines(_Response(_cut(body, size))))
    assert [json.loads(line) for line in lines] == events


def test_an_event_object_passes_through_keep_but_a_bookmark_does_not() -> None:
    def keep(obj: Any) -> Any:
        return {"metadata": obj["metadata"]}

    added = {"type": "ADDED", "object": {"metadata": {"name": "a"}, "status": {"big": 1}}}
    bookmark = {"type": "BOOKMARK", "object": {"metadata": {"resourceVersion": "9"}, "x": 1}}
    assert watchstream._event(added, keep).object == {"metadata": {"name": "a"}}
    assert watchstream._event(bookmark, keep).object == bookmark["object"]
