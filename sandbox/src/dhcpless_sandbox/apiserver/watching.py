"""Watch streams: newline-delimited JSON events, from a resourceVersion or from "now".

Semantics copied from the real server: no resourceVersion (or "0") first sends the current
objects as synthetic ADDED events; an explicit resourceVersion replays the event log after it,
or sends one ERROR event with a 410 Expired Status when the log no longer reaches back that far;
`sendInitialEvents=true` ends the initial ADDED events with a BOOKMARK annotated
`k8s.io/initial-events-end`. With `allowWatchBookmarks=true`, a BOOKMARK carrying the current
resourceVersion every `BOOKMARK_SECONDS` and once more 2 s before the timeout, as the watch
cache does (k8s.io/apiserver `pkg/storage/cacher/cache_watcher.go` `nextBookmarkTime`,
`cacher.go` `defaultBookmarkFrequency`), so a client re-watching after the timeout starts from
a recent resourceVersion instead of one the history no longer reaches (410, then a LIST).
With a label selector, objects that start or stop matching arrive as ADDED or DELETED
(carrying the object as it last matched), as with the watch cache. With `Store.watch_limit`, a
watcher that falls that many events behind is closed, as the cacher closes one that does not
keep up (`store.Store._close_slow`).
"""

from __future__ import annotations

import json
import queue
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from dhcpless_sandbox.apiserver.api import present
from dhcpless_sandbox.apiserver.kinds import ResourceType
from dhcpless_sandbox.apiserver.status import ApiError
from dhcpless_sandbox.apiserver.store import Event, EventType, Store, Watcher

JSON = dict[str, Any]
Matcher = Callable[[JSON], bool]
POLL_SECONDS = 0.5
BOOKMARK_SECONDS = 60.0
BOOKMARK_BEFORE_DEADLINE = 2.0


@dataclass(frozen=True)
class WatchRequest:
    rt: ResourceType
    namespace: str | None
    matches: Matcher
    since: str
    timeout: float
    initial_events: bool
    render: Callable[[JSON], JSON]
    """Turns an object into what the client asked for (the object, or a one-row Table)."""
    bookmarks: bool = False
    """`allowWatchBookmarks=true`."""


def _line(kind: str, obj: JSON) -> bytes:
    return json.dumps({"type": kind, "object": obj}).encode() + b"\n"


def _filtered(event: Event, matches: Matcher) -> tuple[str, JSON] | None:
    now = matches(event.object)
    before = event.previous is not None and matches(event.previous)
    if event.type is EventType.DELETED:
        return (event.type, event.object) if before or now else None
    if event.type is EventType.ADDED or (now and not before):
        return (EventType.ADDED, event.object) if now else None
    if before and not now and event.previous is not None:
        # k8s.io/apiserver pkg/storage/cacher/cache_watcher.go (convertToWatchEvent): the
        # previous object, the one that matched, stamped with the event's resourceVersion.
        meta = {**event.previous["metadata"], "resourceVersion": str(event.rv)}
        return EventType.DELETED, {**event.previous, "metadata": meta}
    return (EventType.MODIFIED, event.object) if now else None


def _bookmark(req: WatchRequest, version: int, end: bool = False) -> bytes:
    meta: JSON = {"resourceVersion": str(version)}
    if end:
        meta["annotations"] = {"k8s.io/initial-events-end": "true"}
    return _line(
        "BOOKMARK", {"kind": req.rt.kind, "apiVersion": req.rt.api_version, "metadata": meta}
    )


def _next_bookmark(req: WatchRequest, now: float, deadline: float) -> float:
    """cache_watcher.go `nextBookmarkTime`: a heartbeat, or 2 s before the deadline if
    sooner, none once that moment has passed; never for a client that did not ask."""
    if not req.bookmarks:
        return float("inf")
    when = min(now + BOOKMARK_SECONDS, deadline - BOOKMARK_BEFORE_DEADLINE)
    return when if when >= now else float("inf")  # too close to the deadline: none


def _pause(left: float, mark: float) -> float:
    """How long to wait for an event: until the deadline, the next bookmark or the next look
    at whether the client is still there, whichever comes first."""
    return max(min(left, mark - time.monotonic(), POLL_SECONDS), 0.01)


def _quiet_version(store: Store, watcher: Watcher) -> int | None:
    """The store's resourceVersion when nothing is queued for `watcher`: a bookmark never
    gets ahead of an event it has not delivered yet."""
    with store.lock:
        return store.resource_version if watcher.events.empty() else None


def _start(store: Store, req: WatchRequest, watcher: Watcher) -> list[bytes]:
    with store.lock:
        if req.since in ("", "0") or req.initial_events:
            current = [
                o for o in store.listing(req.rt.storage_key, req.namespace) if req.matches(o)
            ]
            store.watch(watcher, None)
            lines = [_line("ADDED", req.render(present(o, req.rt))) for o in current]
            if req.initial_events:
                lines.append(_bookmark(req, store.resource_version, end=True))
            return lines
        backlog = store.watch(watcher, int(req.since))
    return [_event_line(e, req) for e in backlog if _filtered(e, req.matches)]


def _event_line(event: Event, req: WatchRequest) -> bytes:
    kind, obj = _filtered(event, req.matches) or ("", event.object)
    return _line(kind, req.render(present(obj, req.rt)))


def stream(store: Store, req: WatchRequest, closed: Callable[[], bool]) -> Iterator[bytes]:
    """Yield event lines until timeout, server stop (None queued) or client gone."""
    watcher = Watcher(req.rt.storage_key, req.namespace, limit=store.watch_limit)
    try:
        yield from _start(store, req, watcher)
    except ApiError as error:
        yield _line("ERROR", error.status())
        return
    deadline = time.monotonic() + req.timeout
    mark = _next_bookmark(req, time.monotonic(), deadline)
    try:
        while (left := deadline - time.monotonic()) > 0 and not closed():
            if time.monotonic() >= mark and (version := _quiet_version(store, watcher)):
                yield _bookmark(req, version)
                mark = _next_bookmark(req, time.monotonic(), deadline)
            try:
                event = watcher.events.get(timeout=_pause(left, mark))
            except queue.Empty:
                continue
            if event is None:
                return
            if _filtered(event, req.matches):
                yield _event_line(event, req)
    finally:
        store.unwatch(watcher)
