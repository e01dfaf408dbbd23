"""One kind in one namespace, kept current by one LIST and then WATCHes (a reflector).

Modelled on client-go `tools/cache/reflector.go`: `Reflector.ListAndWatch` lists once and
records the collection's resourceVersion; `Reflector.watch` re-opens the watch from the last
resourceVersion seen (events and BOOKMARKs advance it) whenever the server ends it at its
`timeoutSeconds`, with no new LIST; an expired resourceVersion (410, `isExpiredError`) or a
broken stream makes `ListAndWatch` return, and `Reflector.RunWithContext` lists again after a
backoff (`defaultBackoffInit` 800 ms doubling to `defaultBackoffMax` 30 s). Unlike a
reflector, 401/403 (a Role without `list` or `watch`) and 404 (the kind is not installed) stop
it for good: the function then reads directly, as without a cache, and nothing loops at rest.

`items()` answers only while the informer is synced and watching: between a broken stream and
the end of the next LIST its data is stale by an unknown amount, and the caller reads directly.
Nor does it answer when the stream has been silent for `QUIET_SECONDS`: kube-apiserver sends
a BOOKMARK at least every minute to a watch that allows them (k8s.io/apiserver
`pkg/storage/cacher/cacher.go` `defaultBookmarkFrequency`), so a longer silence may be a
half-open connection whose data nobody can vouch for; the next event or bookmark ends it.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from typing import Any

from kubernetes.client import ApiClient
from kubernetes.client.exceptions import ApiException

from dhcpless.kube.api.resources import Raw, Resource
from dhcpless.kube.cache import kept, watchstream
from dhcpless.kube.cache.watchstream import Expired, WatchEvent

log = logging.getLogger(__name__)
BACKOFF_FIRST, BACKOFF_MAX = 0.8, 30.0
QUIET_SECONDS = 120.0
WATCH_SECONDS = (300, 600)
"""client-go's `defaultMinWatchTimeout` and twice it: each watch's timeout is drawn between."""


class Informer:
    """The objects of `res` in `namespace`, by name, and the resourceVersion they are at."""

    def __init__(self, api: ApiClient, res: Resource[Any], namespace: str) -> None:
        self.api, self.res, self.namespace = api, res, namespace
        self.keep, self.limit = kept.keep_for(res), kept.limit_for(res)
        """What of each object is held, and how many (`kube.kept`)."""
        self.packer = kept.Packer()
        """How a bounded kind's objects are held (`kube.kept.Packer`)."""
        self.version = ""
        self._items: dict[str, Raw | bytes] = {}
        """By name; a bounded kind's objects packed (`packer`)."""
        self._lock = threading.Lock()
        self.synced, self.stopped = threading.Event(), threading.Event()
        self.tried = threading.Event()
        """Set once the first LIST has answered, whatever it answered."""
        self.disabled = False
        self.lists = self.watches = 0
        self._response: Any = None
        self.heard = 0.0
        """When the server last said something (the LIST, an event, a bookmark)."""
        self._thread = threading.Thread(
            target=self._run, name=f"informer-{res.plural}", daemon=True
        )

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        """End the thread promptly: closing the open stream wakes its blocked read."""
        self.stopped.set()
        response, self._response = self._response, None
        if response is not None:
            watchstream.interrupt(response)

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

    def _run(self) -> None:
        delay = BACKOFF_FIRST
        while not self.stopped.is_set():
            delay = BACKOFF_FIRST if self._list_and_watch() else min(delay * 2, BACKOFF_MAX)
            self.synced.clear()
            if self.disabled:
                return
            self.stopped.wait(delay * (1 + random.random()))  # jitter 1.0, as client-go's

    def _list_and_watch(self) -> bool:
        """True when the LIST succeeded (the backoff starts afresh), False when it failed."""
        try:
            listed = (
                watchstream.list_all(self.api, self.res, self.namespace, self.keep)
                if self.limit is None
                else watchstream.list_version(self.api, self.res, self.namespace)
            )
        except Exception as err:  # any failure: back off and list again
            self._failed("list", err)
            self.tried.set()
            return False
        self.lists += 1
        self._replace(listed)
        while not self.stopped.is_set():
            try:
                self._watch_once()
            except Exception as err:  # expired, broken or refused: relist
                self._failed("watch", err)
                return True
        return True

    def _watch_once(self) -> None:
        seconds = random.randint(*WATCH_SECONDS)
        self.watches += 1
        stream = watchstream.watch(
            self.api, self.res, self.namespace, self.version, seconds, self._opened, self.keep
        )
        for event in stream:
            if self.stopped.is_set():
                return
            self._apply(event)

    def _opened(self, response: Any) -> None:
        self._response = response
        if self.stopped.is_set():  # stopped while it was opening
            watchstream.interrupt(response)

    def _replace(self, listed: watchstream.Listed) -> None:
        with self._lock:
            self._items = {str(o["metadata"]["name"]): o for o in listed.items}
            self._trim()
            self.version = listed.resource_version
            self.heard = time.monotonic()
            self.synced.set()
        self.tried.set()

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
            self.version = str(meta.get("resourceVersion") or self.version)
            self.heard = time.monotonic()

    def _trim(self) -> None:
        """Hold at most `limit` objects, the most recently added or changed (lock held). A
        bounded informer starts from the collection's version alone and holds what changes
        after it: whatever it holds is current, and a name it lacks says nothing."""
        while self.limit is not None and len(self._items) > self.limit:
            del self._items[next(iter(self._items))]

    def _failed(self, what: str, err: Exception) -> None:
        self.synced.clear()  # stale by an unknown amount from here until the next LIST
        if self.stopped.is_set():
            return
        status = err.status if isinstance(err, ApiException) else None
        if status in (401, 403, 404):
            self.disabled = True  # not allowed or not installed: read directly, never loop
        level = logging.DEBUG if isinstance(err, Expired) else logging.WARNING
        log.log(level, "%s cache: %s failed (%s)", self.res.what(self.namespace), what, err)
