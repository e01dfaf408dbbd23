"""An ApiServerSource with a `namespaceSelector`: one reflector per resource and namespace.

Upstream, a non-empty selector is resolved to namespaces and the adapter watches each of them
on its own (knative/eventing `pkg/adapter/apiserver/adapter.go`: one resource interface per
namespace unless `AllNamespaces`), so the source's ServiceAccount needs rights in the selected
namespaces only (a RoleBinding in each, `deploy/cluster-wide/namespace`), never a cluster-wide
LIST. The stand-in does the same: each namespace the selection (`source_namespaces`) gains gets
its reflectors, each one it loses has them stopped. The namespaces selected when the source
starts are listed as the adapter lists them at its start: nothing is sent for what is there.
A namespace selected later is taken in, upstream, by restarting the adapter, which loses what
happened between; here, on the forgiving side, that namespace's first LIST is sent as ADDED
events, so hosts created right after their namespace is labelled are not lost.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any

from kubernetes import client

from dhcpless_sandbox.controllers.reflector import EventHandler, Reflector, WatchEvent

Key = tuple[int, str]
"""(index of the source's resource entry, namespace)."""


class PerNamespace:
    """The reflectors of the selected namespaces, kept in step with the selection."""

    def __init__(
        self,
        entries: list[Any],
        api_for: Callable[[Any], client.ApiClient],
        handler_for: Callable[[Any], EventHandler],
    ) -> None:
        self._entries, self._api_for, self._handler_for = entries, api_for, handler_for
        self._running: dict[Key, Reflector] = {}
        self._lock = threading.Lock()
        self._first = True

    def select(self, namespaces: frozenset[str]) -> None:
        """Start the reflectors of newly selected namespaces; stop those of dropped ones."""
        with self._lock:
            late, self._first = not self._first, False
            wanted = {(i, ns) for i in range(len(self._entries)) for ns in namespaces}
            for key in sorted(set(self._running) - wanted):
                self._running.pop(key).stop()
            for key in sorted(wanted - set(self._running)):
                self._running[key] = self._start(key, late)

    def _start(self, key: Key, late: bool) -> Reflector:
        entry = self._entries[key[0]]
        handler = self._handler_for(entry)
        watched = replace(entry.resource, namespace=key[1])
        on_list = _first_list_as_added(handler) if late else None
        reflector = Reflector(self._api_for(entry), watched, handler, on_list)
        reflector.start()
        return reflector

    @property
    def reflectors(self) -> list[Reflector]:
        with self._lock:
            return list(self._running.values())

    def stop(self) -> None:
        with self._lock:
            running, self._running = list(self._running.values()), {}
        for reflector in running:
            reflector.stop()


def _first_list_as_added(handler: EventHandler) -> Callable[[list[dict[str, Any]]], None]:
    """The first LIST's objects as ADDED events; a relist after 410 sends nothing (upstream's
    `Replace` is a no-op, `pkg/adapter/apiserver/delegate.go`)."""
    done = threading.Event()

    def on_list(items: Iterable[dict[str, Any]]) -> None:
        if done.is_set():
            return
        done.set()
        for item in sorted(items, key=_written):  # in the order they were written, not by name
            handler(WatchEvent.ADDED, item)

    return on_list


def _written(item: dict[str, Any]) -> int:
    """An object's resourceVersion as a number (the sandbox's, like etcd's, only grow)."""
    version = str((item.get("metadata") or {}).get("resourceVersion") or "0")
    return int(version) if version.isdigit() else 0
