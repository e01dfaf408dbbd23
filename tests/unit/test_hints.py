"""A function process's read-saving hints (`chain.hints`) and the pure room rule they use.

Covers: `may_have_room` (first seen, another pool under the name, a spec change, an address
freed or moved: room; only more addresses taken: none); `Rooms.forget` makes the next event
list; `Decided` skips only the exact version a finished run listed, and forgets the oldest
beyond its limit.
"""

from __future__ import annotations

from typing import Any

import pytest

from dhcpless.chain.hints import Decided, Rooms
from dhcpless.chain.predicates import pool_room
from dhcpless.chain.predicates.pool_room import PoolMark, may_have_room
from dhcpless.models import IPClaim, IPPool

SEEN = PoolMark("u1", 1, pool_room.held([("a", "10.0.0.1")]))


def mark(uid: str = "u1", generation: int = 1, **held: str) -> PoolMark:
    return PoolMark(uid, generation, pool_room.held(held.items()))


@pytest.mark.parametrize(
    ("before", "now", "room"),
    [
        pytest.param(None, SEEN, True, id="never-seen"),
        pytest.param(SEEN, mark(a="10.0.0.1"), False, id="unchanged"),
        pytest.param(SEEN, mark(a="10.0.0.1", b="10.0.0.2"), False, id="one-more-taken"),
        pytest.param(SEEN, mark(), True, id="freed"),
        pytest.param(SEEN, mark(a="10.0.0.9"), True, id="moved"),
        pytest.param(SEEN, mark(generation=2, a="10.0.0.1"), True, id="spec-changed"),
        pytest.param(SEEN, mark(uid="u2", a="10.0.0.1"), True, id="re-created"),
    ],
)
def test_may_have_room(before: PoolMark | None, now: PoolMark, room: bool) -> None:
    assert may_have_room(before, now) is room


def pool(indexes: dict[str, str]) -> IPPool:
    meta = {"name": "p", "namespace": "ns", "uid": "u1", "generation": 1}
    return IPPool.from_k8s({"metadata": meta, "spec": {}, "status": {"indexes": indexes}})


def test_a_pool_mark_is_what_the_room_rule_compares() -> None:
    assert pool_room.mark(pool({"a": "10.0.0.1"})) == SEEN


@pytest.mark.parametrize(
    ("forget", "room"),
    [pytest.param(False, False, id="remembered"), pytest.param(True, True, id="forgotten")],
)
def test_rooms_remember_until_forgotten(forget: bool, room: bool) -> None:
    rooms = Rooms()
    assert rooms.changed(pool({"a": "10.0.0.1"}))
    if forget:
        rooms.forget("ns", "p")
    assert rooms.changed(pool({"a": "10.0.0.1", "b": "10.0.0.2"})) is room


def claim(name: str, version: str | None) -> IPClaim:
    meta: dict[str, Any] = {"name": name, "namespace": "ns"}
    if version is not None:
        meta["resourceVersion"] = version
    return IPClaim.from_k8s({"metadata": meta, "spec": {"pool": {"name": "p"}}})


@pytest.mark.parametrize(
    ("recorded", "asked", "covered"),
    [
        pytest.param(claim("c", "7"), claim("c", "7"), True, id="same-version"),
        pytest.param(claim("c", "7"), claim("c", "8"), False, id="newer-version"),
        pytest.param(claim("c", "7"), claim("d", "7"), False, id="another-claim"),
        pytest.param(claim("c", None), claim("c", None), False, id="no-version"),
    ],
)
def test_decided_covers_only_the_version_listed(
    recorded: IPClaim, asked: IPClaim, covered: bool
) -> None:
    decided = Decided()
    decided.record([recorded])
    assert decided.covers(asked) is covered


def test_decided_forgets_the_oldest_beyond_its_limit() -> None:
    decided = Decided(limit=2)
    decided.record([claim("a", "1"), claim("b", "1"), claim("c", "1")])
    assert [decided.covers(claim(n, "1")) for n in "abc"] == [False, True, True]
