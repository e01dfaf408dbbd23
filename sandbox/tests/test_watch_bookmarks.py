"""Watch bookmarks as kube-apiserver's watch cache sends them (`allowWatchBookmarks=true`).

Covers: a watch that asks for bookmarks gets one carrying the store's current
resourceVersion before its `timeoutSeconds` ends it (2 s before the deadline,
`cache_watcher.go` `nextBookmarkTime`), even when only other kinds changed meanwhile; a
re-watch from that bookmark works where a re-watch from the watch's own start, which the
history no longer reaches, is Expired (410); the heartbeat bookmark of a quiet watch, and
none for a watch that did not ask.
"""

from __future__ import annotations

import threading

import pytest
from kubernetes import watch
from kubernetes.client import ApiClient, CoreV1Api, V1ConfigMap, V1ObjectMeta

from dhcpless.kube.api import resources as r
from dhcpless.kube.cache import watchstream
from dhcpless_sandbox.apiserver import watching
from dhcpless_sandbox.apiserver.server import SandboxServer
from tests.support.waits import eventually

HISTORY = 10
NS = "default"


def _config_maps(api: ApiClient, count: int) -> None:
    for n in range(count):
        body = V1ConfigMap(metadata=V1ObjectMeta(name=f"c{n}"))
        CoreV1Api(api).create_namespaced_config_map(NS, body)


def _watch_in_background(api: ApiClient, since: str) -> tuple[threading.Thread, list[object]]:
    found: list[object] = []

    def run() -> None:
        found.extend(watchstream.watch(api, r.SECRETS, NS, since, 3))

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, found


def test_a_bookmark_before_the_timeout_lets_a_watch_resume() -> None:
    with SandboxServer(history=HISTORY) as server, server.api_client() as api:
        start = watchstream.list_all(api, r.SECRETS, NS).resource_version
        thread, found = _watch_in_background(api, start)
        eventually(lambda: server.audit.counts["watch"], 5, "the watch open")
        _config_maps(api, HISTORY + 5)  # other kinds move the version past the history
        thread.join(timeout=30)
        assert [e.type for e in found] == ["BOOKMARK"]  # type: ignore[attr-defined]
        mark = found[0].object["metadata"]["resourceVersion"]  # type: ignore[attr-defined]
        assert int(mark) == server.store.resource_version
        assert list(watchstream.watch(api, r.SECRETS, NS, mark, 1)) == []
        with pytest.raises(watchstream.Expired):
            list(watchstream.watch(api, r.SECRETS, NS, start, 1))


def test_heartbeat_bookmarks_only_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    """The every-minute heartbeat (here every 0.2 s) on a quiet watch that asked for
    bookmarks; none on one that did not (both watches side by side, 3 s each)."""
    monkeypatch.setattr(watching, "BOOKMARK_SECONDS", 0.2)
    with SandboxServer() as server, server.api_client() as api:
        asked: list[str] = []
        thread = threading.Thread(
            target=lambda: asked.extend(
                e.type for e in watchstream.watch(api, r.SECRETS, NS, "", 3)
            ),
            daemon=True,
        )
        thread.start()
        stream = watch.Watch().stream(  # type: ignore[no-untyped-call]
            CoreV1Api(api).list_namespaced_secret, NS, timeout_seconds=3
        )
        not_asked = [e["type"] for e in stream]
        thread.join(timeout=30)
        assert (asked.count("BOOKMARK") >= 2, not_asked) == (True, [])
