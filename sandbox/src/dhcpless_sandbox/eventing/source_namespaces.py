"""Which namespaces an ApiServerSource with a `namespaceSelector` sends events from.

Upstream (knative/eventing `pkg/reconciler/apiserversource/apiserversource.go`,
`namespacesFromSelector` and `isEmptySelector`): no selector means the source's own namespace
only; an empty selector means every namespace (one cluster-wide watch per resource); any other
selector is resolved by the controller's Namespace lister into a sorted list of namespace names,
and the adapter (`pkg/adapter/apiserver/adapter.go`) runs one reflector per resource and listed
namespace. The controller watches Namespaces and resyncs every source when one changes
(`controller.go`), so a namespace labelled later is watched from then on, and one unlabelled
stops being watched.

The stand-in runs one reflector per resource and selected namespace as well (`source_scoped`:
the source's ServiceAccount needs no cluster-wide right), started and stopped as this
selection changes. The selection is a Namespace watch with the selector (as the controller's
lister), read with the caller's client: the controller's permissions, not the adapter's
ServiceAccount; every change is handed to the listeners (`listen`).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from typing import Any

from kubernetes import client

from dhcpless_sandbox.controllers.reflector import Reflector, WatchedResource, WatchEvent


class NamespaceScope:
    """The namespaces a label selector selects, kept current by a watch."""

    def __init__(self, api: client.ApiClient, selector: str) -> None:
        self._api, self._selector = api, selector
        self._names: set[str] = set()
        self._lock = threading.Lock()
        self._listeners: list[Callable[[frozenset[str]], None]] = []
        watched = WatchedResource("v1", "Namespace", "namespaces", selector, cluster_scoped=True)
        self._reflector = Reflector(api, watched, self._on_event, self._on_list)

    def listen(self, listener: Callable[[frozenset[str]], None]) -> None:
        """`listener(names)` after every change of the selection (before `start`)."""
        self._listeners.append(listener)

    def start(self) -> None:
        self._reflector.start()

    def stop(self) -> None:
        self._reflector.stop()

    def wait_synced(self, timeout: float) -> bool:
        return self._reflector.wait_synced(timeout)

    def admits(self, namespace: str) -> bool:
        """True when the selector selects `namespace` (a miss is confirmed with one LIST)."""
        with self._lock:
            if namespace in self._names:
                return True
        self._on_list(self._list())
        with self._lock:
            return namespace in self._names

    def _list(self) -> list[dict[str, Any]]:
        core = client.CoreV1Api(self._api)
        answer: Any = core.list_namespace(label_selector=self._selector, _preload_content=False)
        items: list[dict[str, Any]] = json.loads(answer.data).get("items") or []
        return items

    def _on_list(self, items: list[dict[str, Any]]) -> None:
        with self._lock:
            self._names = {str(item["metadata"]["name"]) for item in items}
        self._changed()

    def _changed(self) -> None:
        with self._lock:
            names = frozenset(self._names)
        for listener in self._listeners:
            listener(names)

    def _on_event(self, kind: WatchEvent, obj: dict[str, Any]) -> None:
        name = str(obj["metadata"]["name"])
        with self._lock:
            if kind is WatchEvent.DELETED:  # deleted, or no longer matching the selector
                self._names.discard(name)
            else:
                self._names.add(name)
        self._changed()
