"""In-memory object storage with one global resourceVersion counter and a bounded event log.

Every write takes the lock, bumps the counter, stores the object stamped with that
resourceVersion and publishes one watch event to the log and to every matching watcher, all
before the lock is released: watchers therefore see events in resourceVersion order, and a watch
started "from resourceVersion N" replays exactly the log entries after N. Semantics (validation,
finalizers, GC) live above this module; here is only storage and ordering.
"""

from __future__ import annotations

import queue
import threading
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from dhcpless_sandbox.apiserver.label_index import LabelIndex
from dhcpless_sandbox.apiserver.status import expired

JSON = dict[str, Any]
StorageKey = tuple[str, str]
"""(group, plural): every served version of a resource shares one storage."""

HISTORY = 10_000


class EventType(StrEnum):
    ADDED = "ADDED"
    MODIFIED = "MODIFIED"
    DELETED = "DELETED"


@dataclass(frozen=True)
class Event:
    type: EventType
    key: StorageKey
    object: JSON
    rv: int
    previous: JSON | None = None


@dataclass(eq=False)
class Watcher:
    """One open watch: receives events for its storage key (and namespace, if any)."""

    key: StorageKey
    namespace: str | None
    events: queue.SimpleQueue[Event | None] = field(default_factory=queue.SimpleQueue)
    limit: int | None = None
    """Undelivered events it may hold; one more and it is closed (`Store.watch_limit`)."""

    def wants(self, event: Event) -> bool:
        ns = event.object.get("metadata", {}).get("namespace")
        return event.key == self.key and self.namespace in (None, ns)

    def close(self) -> None:
        self.events.put(None)


def _meta(obj: JSON) -> JSON:
    meta: JSON = obj["metadata"]
    return meta


class Store:
    """Objects by storage key, then namespace ("" for cluster-scoped), then name."""

    def __init__(self, history: int = HISTORY, watch_limit: int | None = None) -> None:
        """`watch_limit`: bounded watches (None: every watcher's queue is unbounded)."""
        self.lock = threading.RLock()
        self.watch_limit = watch_limit
        self.closed_watchers = 0
        """Watchers closed because they did not keep up (`_close_slow`)."""
        self._objects: dict[StorageKey, dict[str, dict[str, JSON]]] = {}
        self._by_uid: dict[str, tuple[StorageKey, str, str]] = {}
        self._dependents: dict[str, set[str]] = {}
        self._rv = 0
        self._log: deque[Event] = deque(maxlen=history)
        self._compacted = 0
        self._watchers: set[Watcher] = set()
        self._labels = LabelIndex()

    @property
    def resource_version(self) -> int:
        with self.lock:
            return self._rv

    def get(self, key: StorageKey, namespace: str, name: str) -> JSON | None:
        with self.lock:
            return self._objects.get(key, {}).get(namespace, {}).get(name)

    def listing(
        self, key: StorageKey, namespace: str | None, labels: Sequence[tuple[str, str]] = ()
    ) -> list[JSON]:
        """Objects sorted by namespace and name, as etcd's key order gives them. `labels`: only
        candidates that may carry all of them (`label_index`: a superset, check each)."""
        with self.lock:
            spaces = self._objects.get(key, {})
            if labels and namespace is not None:
                objs = spaces.get(namespace, {})
                picked = min((self._labels.names(key, namespace, *kv) for kv in labels), key=len)
                return [objs[n] for n in sorted(picked) if n in objs]
            names = [namespace] if namespace is not None else sorted(spaces)
            return [spaces[ns][n] for ns in names if ns in spaces for n in sorted(spaces[ns])]

    def by_uid(self, uid: str) -> JSON | None:
        with self.lock:
            where = self._by_uid.get(uid)
            return self.get(*where) if where else None

    def key_of(self, uid: str) -> StorageKey | None:
        with self.lock:
            where = self._by_uid.get(uid)
            return where[0] if where else None

    def dependents(self, owner_uid: str) -> list[str]:
        """uids of objects with an ownerReference to `owner_uid`."""
        with self.lock:
            return sorted(self._dependents.get(owner_uid, ()))

    def namespaces_in_use(self, namespace: str) -> Iterator[tuple[StorageKey, JSON]]:
        with self.lock:
            items = [
                (k, o)
                for k, spaces in self._objects.items()
                for o in spaces.get(namespace, {}).values()
            ]
        return iter(items)

    def put(self, key: StorageKey, obj: JSON, previous: JSON | None) -> JSON:
        """Store `obj` (created or replaced) with a fresh resourceVersion; publish the event."""
        with self.lock:
            self._rv += 1
            meta = _meta(obj)
            meta["resourceVersion"] = str(self._rv)
            namespace = meta.get("namespace", "")
            self._objects.setdefault(key, {}).setdefault(namespace, {})[meta["name"]] = obj
            self._index(key, obj, previous)
            kind = EventType.MODIFIED if previous is not None else EventType.ADDED
            self._publish(Event(kind, key, obj, self._rv, previous))
            return obj

    def remove(self, key: StorageKey, obj: JSON) -> JSON:
        """Delete for good; the DELETED event carries a new resourceVersion, as etcd3 does."""
        with self.lock:
            self._rv += 1
            meta = _meta(obj)
            gone = {**obj, "metadata": {**meta, "resourceVersion": str(self._rv)}}
            del self._objects[key][meta.get("namespace", "")][meta["name"]]
            self._index(key, None, obj)
            self._publish(Event(EventType.DELETED, key, gone, self._rv, obj))
            return gone

    def _index(self, key: StorageKey, new: JSON | None, old: JSON | None) -> None:
        for obj, adding in ((old, False), (new, True)):
            if obj is None:
                continue
            self._labels.add(key, obj) if adding else self._labels.drop(key, obj)
            meta = _meta(obj)
            uid = meta["uid"]
            for ref in meta.get("ownerReferences") or []:
                owners = self._dependents.setdefault(str(ref.get("uid")), set())
                owners.add(uid) if adding else owners.discard(uid)
            if adding:
                self._by_uid[uid] = (key, meta.get("namespace", ""), meta["name"])
            elif new is None:
                self._by_uid.pop(uid, None)

    def _publish(self, event: Event) -> None:
        if len(self._log) == self._log.maxlen:
            self._compacted = self._log[0].rv
        self._log.append(event)
        for watcher in list(self._watchers):
            if not watcher.wants(event):
                continue
            if watcher.limit is not None and watcher.events.qsize() >= watcher.limit:
                self._close_slow(watcher)
            else:
                watcher.events.put(event)

    def _close_slow(self, watcher: Watcher) -> None:
        """k8s.io/apiserver `pkg/storage/cacher/cache_watcher.go` `add`: a watcher whose buffer
        is still full when an event comes (the real one waits a budget of at most 100 ms) is
        stopped; what it buffered is still sent, then its stream ends. This event and every
        later one reach the client only if it re-watches from its last resourceVersion while
        the history still has it; else 410 Gone, a relist, and (Knative's adapter) a gap."""
        self._watchers.discard(watcher)
        self.closed_watchers += 1
        watcher.close()

    def watch(self, watcher: Watcher, since: int | None) -> list[Event]:
        """Register `watcher`; return what it must see first (history after `since`).

        With `since=None` the caller replays current state itself, under the same lock hold,
        by calling `listing` before releasing: use `with store.lock:` around both.
        """
        with self.lock:
            if since is not None and since < self._compacted:
                raise expired(f"too old resource version: {since} ({self._compacted + 1})")
            backlog = (
                [] if since is None else [e for e in self._log if e.rv > since and watcher.wants(e)]
            )
            self._watchers.add(watcher)
            return backlog

    def unwatch(self, watcher: Watcher) -> None:
        with self.lock:
            self._watchers.discard(watcher)

    def close_watchers(self) -> None:
        with self.lock:
            for watcher in self._watchers:
                watcher.close()
            self._watchers.clear()
