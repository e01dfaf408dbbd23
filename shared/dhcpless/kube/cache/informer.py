"""One kind in one namespace, kept current by the one reflector (`kube.cache.reflector`: one
LIST, then WATCHes, client-go's loop and backoff). Unlike client-go's reflector, 401/403 (a
Role without `list` or `watch`) and 404 (the kind is not installed) stop it for good: the
function then reads directly, as without a cache, and nothing loops at rest.

`items()` answers only while the informer is synced and watching: between a broken stream and
the end of the next LIST its data is stale by an unknown amount, and the caller reads directly.
Nor does it answer when the stream has been silent for `QUIET_SECONDS`: kube-apiserver sends
a BOOKMARK at least every minute to a watch that allows them (k8s.io/apiserver
`pkg/storage/cacher/cacher.go` `defaultBookmarkFrequency`), so a longer silence may be a
half-open connection whose data nobody can vouch for; the next event or bookmark ends it.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from kubernetes.client import ApiClient

from dhcpless.kube.api.resources import Raw, Resource
from dhcpless.kube.cache import kept, watchstream
from dhcpless.kube.cache.reflector import Policy, Reflector
from dhcpless.kube.cache.watchstream import WatchEvent

QUIET_SECONDS = 120.0
POLICY = Policy()
"""client-go's backoff and watch timeouts; 401/403/404 stop the informer for good."""


class Informer(Reflector):
    """The objects of `res` in `namespace`, by name, and the resourceVersion they are at."""

    namespace: str

    def __init__(self, api: ApiClient, res: Resource[Any], namespace: str) -> None:
        super().__init__(api, res, namespace, policy=POLICY, name=f"informer-{res.plural}")
        self.keep, self.limit = kept.keep_for(res), kept.limit_for(res)
        """What of each object is held, and how many (`kube.cache.kept`)."""
        self.packer = kept.Packer()
        """How a bounded kind's objects are held (`kube.cache.kept.Packer`)."""
        self._items: dict[str, Raw | bytes] = {}
        """By name; a bounded kind's objects packed (`packer`)."""
        self._lock = threading.Lock()
        self.heard = 0.0
        """When the server last said something (the LIST, an event, a bookmark)."""

    def items(self) -> dict[str, Raw] | None:
        """A copy of the objects by name; None when not synced (read directly instead)."""
        with self._lock:
            held = dict(self._items) if self._answers() else None
        unpack = self.packer.unpack
        return None if held is None else {name: unpack(obj) for name, obj in held.items()}

    def find(self, name: str) -> Raw | None:
        """One object by name; None when not held or not synced (read directly instead)."""
        with self._lock:
            found = self._items.get(name) if self._answers() else None
        return None if found is None else self.packer.unpack(found)

    def _answers(self) -> bool:
        """Synced and heard from lately (lock held)."""
        return self.synced.is_set() and time.monotonic() - self.heard <= QUIET_SECONDS

    def _list(self) -> watchstream.Listed:
        """A bounded kind starts from the collection's version alone (`_trim`)."""
        if self.limit is None:
            return super()._list()
        return watchstream.list_version(self.api, self.res, self.namespace)

    def _listed(self, listed: watchstream.Listed) -> None:
        with self._lock:
            self._items = {str(o["metadata"]["name"]): o for o in listed.items}
            self._trim()
            self.heard = time.monotonic()

    def _event(self, event: WatchEvent) -> None:
        self._apply(event)

    def _apply(self, event: WatchEvent) -> None:
        meta = event.object.get("metadata") or {}
        with self._lock:
            if event.type in ("ADDED", "MODIFIED"):
                name = str(meta.get("name"))
                self._items.pop(name, None)  # the most recent last (`_trim` drops the oldest)
                obj = self.keep(event.object)
                self._items[name] = obj if self.limit is None else self.packer.pack(obj)
                self._trim()
            elif event.type == "DELETED":
                self._items.pop(str(meta.get("name")), None)
            self.heard = time.monotonic()

    def _trim(self) -> None:
        """Hold at most `limit` objects, the most recently added or changed (lock held). A
        bounded informer starts from the collection's version alone and holds what changes
        after it: whatever it holds is current, and a name it lacks says nothing."""
        while self.limit is not None and len(self._items) > self.limit:
            del self._items[next(iter(self._items))]
