"""client-go's reflector for the stand-ins: the product's one reflector (`dhcpless.kube`
`Reflector`, the watch cache's too) with the stand-ins' policy and handlers.

Exists on its own because three stand-ins stand on it: the ApiServerSource adapter (one per
watched resource; it ignores the LIST, as the real adapter's store does) and the IPAM and BMO
controllers (which enqueue everything the LIST returns, as an informer's initial sync does).
The watch is resumed from the last seen resourceVersion and re-LISTed only on 410 Gone; a
failure is retried after a short pause, for ever (a stand-in never gives up on its kind).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, cast

from kubernetes import client

from dhcpless.kube import Listed, ReflectorPolicy, StreamEvent
from dhcpless.kube import Reflector as KubeReflector
from dhcpless.kube.api.resources import Resource
from dhcpless.models.base import K8sObject

_RETRY_PAUSE = 0.2
_WATCH_SECONDS = 300
POLICY = ReflectorPolicy(
    backoff_first=_RETRY_PAUSE,
    backoff_max=_RETRY_PAUSE,
    jitter=0.0,
    watch_seconds=(_WATCH_SECONDS, _WATCH_SECONDS),
    relist_after_broken_watch=False,
    give_up=frozenset(),
    page=None,
    bookmarks=False,
    failure_level=logging.DEBUG,
)
"""One LIST request, watches of `_WATCH_SECONDS`, a constant pause, no bookmarks asked for."""


class WatchEvent(StrEnum):
    """Watch event types that carry an object (BOOKMARK and ERROR are handled inside)."""

    ADDED = "ADDED"
    MODIFIED = "MODIFIED"
    DELETED = "DELETED"


@dataclass(frozen=True)
class WatchedResource:
    """A collection to LIST and WATCH: all namespaces unless `namespace` is given."""

    api_version: str
    kind: str
    plural: str
    label_selector: str | None = None
    namespace: str | None = None
    cluster_scoped: bool = False
    """A kind without namespaces (Namespace)."""

    def descriptor(self) -> Resource[K8sObject]:
        """The product's descriptor of this kind (its objects are handed on raw)."""
        group, _, version = self.api_version.rpartition("/")
        return Resource(
            self.kind, group, version, self.plural, K8sObject.from_k8s, not self.cluster_scoped
        )


ListHandler = Callable[[list[dict[str, Any]]], None]
EventHandler = Callable[[WatchEvent, dict[str, Any]], None]


class Reflector(KubeReflector):
    """LIST, then WATCH from the list's resourceVersion; re-LIST only when the watch expires.

    `on_list` sees every LIST result (controllers enqueue it; the event source ignores it).
    `expired` counts re-watches answered 410 Gone (then a relist): for the event source, a gap.
    """

    def __init__(
        self,
        api: client.ApiClient,
        resource: WatchedResource,
        on_event: EventHandler,
        on_list: ListHandler | None = None,
    ) -> None:
        namespace = None if resource.cluster_scoped else resource.namespace
        selector = resource.label_selector or ""
        super().__init__(api, resource.descriptor(), namespace, selector, POLICY, resource.kind)
        self._on_event, self._on_list = on_event, on_list
        self._listed_once = threading.Event()
        """Set at the first successful LIST, never cleared (`wait_synced`)."""

    def stop(self) -> None:
        super().stop()
        self._thread.join(timeout=2)

    def wait_synced(self, timeout: float) -> bool:
        return self._listed_once.wait(timeout)

    def _listed(self, listed: Listed) -> None:
        if self._on_list is not None:
            self._on_list([cast(dict[str, Any], obj) for obj in listed.items])
        self._listed_once.set()

    def _event(self, event: StreamEvent) -> None:
        if event.type in WatchEvent.__members__:
            self._on_event(WatchEvent(event.type), cast(dict[str, Any], event.object))
