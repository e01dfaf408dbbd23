"""What one function process (ipclaim-fulfilment) remembers to skip reads, never checks.

Both are hints held in memory: a process that has not seen what they record (it just started,
another replica served the event) reads as before, and a resync tick runs the pipeline
whatever they say, so forgetting costs a read, never a retry or a check.

* `Rooms`: the IPPools seen, so that an IPPool event that cannot have made room lists nothing
  (`predicates.pool_room.may_have_room`). IPAM writes a pool's status at each allocation, so most
  IPPool events only say that an address was taken. A pool a claim of which failed since is
  forgotten (`forget`): the failure may have been written after the change that made room.
* `Decided`: the claim versions a finished pipeline run listed, so that a later event about a
  claim version that run already saw costs no read. With several pools the claims of one host
  are answered close together: the first answer's event often finds every claim answered, and
  that run renders and releases; each later answer's event brings nothing the run had not
  seen. An event is skipped only when its claim is at the very version
  (`metadata.resourceVersion`, compared for equality only, as the API allows) that a run which
  returned normally listed. Versions are compared by their hashes (issue 28): a collision,
  odds of one in 2^64 per event, would skip one event, which the next resync tick makes up.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Final

from dhcpless.chain.predicates.pool_room import PoolMark, mark, may_have_room
from dhcpless.chain.serial import PerKey
from dhcpless.models import IPClaim, IPPool

LIMIT: Final = 4096
"""Claim versions remembered; the oldest go first (a forgotten one costs a read, no more)."""


class Rooms:
    """The last mark of each pool seen, by (namespace, name); thread-safe (gunicorn threads)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._seen: dict[tuple[str, str], PoolMark] = {}

    def changed(self, pool: IPPool) -> bool:
        """Record `pool` as seen now; True when it may have room it did not have before."""
        key = (pool.metadata.namespace or "default", pool.metadata.name)
        now = mark(pool)
        with self._lock:
            before, self._seen[key] = self._seen.get(key), now
        return may_have_room(before, now)

    def forget(self, namespace: str, name: str) -> None:
        """The pool was deleted, or a claim of it failed: its next event lists again."""
        with self._lock:
            self._seen.pop((namespace, name), None)


def _key(claim: IPClaim) -> int:
    """A claim's (namespace, name) as one hash: the claim objects' strings are not kept alive
    (issue 28). A collision can only make `covers` compare with another claim's version, and
    resourceVersions are not shared between objects written apart."""
    return hash((claim.metadata.namespace or "default", claim.metadata.name))


class Decided:
    """Claim (namespace, name), hashed -> the version a finished run listed, hashed too (two
    ints an entry in a plain dict, oldest first: a third of an ordered dict of strings);
    thread-safe."""

    def __init__(self, limit: int = LIMIT) -> None:
        self._lock = threading.Lock()
        self._seen: dict[int, int] = {}
        self._limit = limit

    def covers(self, claim: IPClaim) -> bool:
        """True when a finished run listed this claim at this very version."""
        version = claim.metadata.resource_version
        with self._lock:
            return bool(version) and self._seen.get(_key(claim)) == hash(version)

    def record(self, listed: Iterable[IPClaim]) -> None:
        """Call only after the run that listed these claims returned normally."""
        with self._lock:
            for claim in listed:
                if claim.metadata.resource_version:
                    self._seen.pop(_key(claim), None)  # the most recent last
                    self._seen[_key(claim)] = hash(claim.metadata.resource_version)
            while len(self._seen) > self._limit:
                del self._seen[next(iter(self._seen))]


@dataclass(frozen=True)
class Hints:
    """One process's hints, made once per app (`create_app`)."""

    rooms: Rooms = field(default_factory=Rooms)
    decided: Decided = field(default_factory=Decided)
    hosts: PerKey = field(default_factory=PerKey)
    """One answered-claims run per host at a time (`chain.serial`)."""
