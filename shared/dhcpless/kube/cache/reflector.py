"""The one reflector: one kind in one namespace (or all), one LIST, then WATCHes from its
resourceVersion, on a thread of its own. The watch cache's informers (`kube.cache.informer`)
and the sandbox's controllers and event sources stand on it, each with its `Policy`.

Modelled on client-go `tools/cache/reflector.go`: `Reflector.ListAndWatch` lists once and
records the collection's resourceVersion; `Reflector.watch` re-opens the watch from the last
resourceVersion seen (events and BOOKMARKs advance it) whenever the server ends it at its
`timeoutSeconds`, with no new LIST; an expired resourceVersion (410, `isExpiredError`) makes
`ListAndWatch` return, and `Reflector.RunWithContext` lists again after a backoff
(`defaultBackoffInit` 800 ms doubling to `defaultBackoffMax` 30 s, jitter 1.0). What a LIST
and an event do is the subclass's (`_listed`, `_event`).
"""

from __future__ import annotations

import logging
import random
import threading
from dataclasses import dataclass
from typing import Any

from kubernetes.client import ApiClient
from kubernetes.client.exceptions import ApiException

from dhcpless.kube.api.resources import Resource
from dhcpless.kube.cache import watchstream
from dhcpless.kube.cache.watchstream import Expired, Listed, WatchEvent

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Policy:
    """How a reflector lists, watches and recovers; the defaults are client-go's."""

    backoff_first: float = 0.8
    backoff_max: float = 30.0
    jitter: float = 1.0
    watch_seconds: tuple[int, int] = (300, 600)
    """client-go's `defaultMinWatchTimeout` and twice it: each watch's timeout is drawn between."""
    relist_after_broken_watch: bool = True
    """False: a broken stream (not an expired version) is watched again from the last version."""
    give_up: frozenset[int] = frozenset({401, 403, 404})
    """Statuses that stop the reflector for good (not allowed, or the kind not installed)."""
    page: int | None = watchstream.PAGE
    """Objects per LIST page; None: one LIST request."""
    bookmarks: bool = True
    failure_level: int = logging.WARNING


class Reflector:
    """LIST, then WATCH from the list's resourceVersion, until `stop`."""

    def __init__(
        self,
        api: ApiClient,
        res: Resource[Any],
        namespace: str | None,
        selector: str = "",
        policy: Policy = Policy(),
        name: str = "",
    ) -> None:
        self.api, self.res, self.namespace, self.selector = api, res, namespace, selector
        self.policy = policy
        self.keep: watchstream.Keep = watchstream.unchanged
        self.version = ""
        self.synced, self.stopped = threading.Event(), threading.Event()
        self.tried = threading.Event()
        """Set once the first LIST has answered, whatever it answered."""
        self.disabled = False
        self.lists = self.watches = self.expired = 0
        self._response: Any = None
        self._thread = threading.Thread(
            target=self._run, name=name or f"reflector-{res.plural}", daemon=True
        )

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        """End the thread promptly: closing the open stream wakes its blocked read."""
        self.stopped.set()
        response, self._response = self._response, None
        if response is not None:
            watchstream.interrupt(response)

    def _listed(self, listed: Listed) -> None:
        """What a successful LIST does (the subclass's)."""

    def _event(self, event: WatchEvent) -> None:
        """What one watch event does (the subclass's)."""

    def _list(self) -> Listed:
        return watchstream.list_all(
            self.api, self.res, self.namespace, self.keep, self.policy.page, selector=self.selector
        )

    def _run(self) -> None:
        first, most = self.policy.backoff_first, self.policy.backoff_max
        delay = first
        while not self.stopped.is_set():
            delay = first if self._list_and_watch() else min(delay * 2, most)
            self.synced.clear()
            if self.disabled:
                return
            self.stopped.wait(delay * (1 + self.policy.jitter * random.random()))

    def _list_and_watch(self) -> bool:
        """True when the LIST succeeded (the backoff starts afresh), False when it failed."""
        try:
            listed = self._list()
        except Exception as err:  # any failure: back off and list again
            self._failed("list", err)
            self.tried.set()
            return False
        self.lists += 1
        self.version = listed.resource_version
        self._listed(listed)
        self.synced.set()
        self.tried.set()
        while not self.stopped.is_set():
            try:
                self._watch_once()
            except Exception as err:  # expired, broken or refused
                self._failed("watch", err)
                if self.disabled or _expired(err) or self.policy.relist_after_broken_watch:
                    return True
                self.stopped.wait(self.policy.backoff_first)
        return True

    def _watch_once(self) -> None:
        seconds = random.randint(*self.policy.watch_seconds)
        self.watches += 1
        stream = watchstream.watch(
            self.api, self.res, self.namespace, self.version, seconds, self._opened, self.keep,
            selector=self.selector, bookmarks=self.policy.bookmarks,
        )  # fmt: skip
        for event in stream:
            if self.stopped.is_set():
                return
            self._event(event)
            meta = event.object.get("metadata") or {}
            self.version = str(meta.get("resourceVersion") or self.version)

    def _opened(self, response: Any) -> None:
        self._response = response
        if self.stopped.is_set():  # stopped while it was opening
            watchstream.interrupt(response)

    def _failed(self, what: str, err: Exception) -> None:
        self.synced.clear()  # stale by an unknown amount from here until the next LIST
        if self.stopped.is_set():
            return
        self.expired += _expired(err)
        status = err.status if isinstance(err, ApiException) else None
        if status in self.policy.give_up:
            self.disabled = True  # not allowed or not installed: never loop
        level = logging.DEBUG if isinstance(err, Expired) else self.policy.failure_level
        log.log(level, "%s reflector: %s failed (%s)", self.res.what(self.namespace), what, err)


def _expired(err: Exception) -> bool:
    """An expired resourceVersion: as an ERROR event (`Expired`) or the watch's own status."""
    return isinstance(err, Expired) or (isinstance(err, ApiException) and err.status == 410)
