"""client-go's reflector: LIST, then WATCH from the list's resourceVersion.

Exists on its own because three stand-ins stand on it: the ApiServerSource adapter (one per
watched resource; it ignores the LIST, as the real adapter's store does) and the IPAM and BMO
controllers (which enqueue everything the LIST returns, as an informer's initial sync does).
The watch is resumed from the last seen resourceVersion and re-LISTed only on 410 Gone.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from kubernetes import client, watch
from kubernetes.client.exceptions import ApiException

log = logging.getLogger(__name__)

_Watch: Any = watch.Watch
"""The official client's watch helper (untyped upstream)."""

_RETRY_PAUSE = 0.2
_WATCH_SECONDS = 300


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
    """A core kind without namespaces (Namespace): `list_<kind>`, not `..._for_all_namespaces`."""

    def list_call(self, api: client.ApiClient) -> tuple[Callable[..., Any], dict[str, Any]]:
        """The official client's list function for this collection, and its arguments."""
        group, _, version = self.api_version.rpartition("/")
        selector = {"label_selector": self.label_selector} if self.label_selector else {}
        if group:
            custom = client.CustomObjectsApi(api)
            args = {"group": group, "version": version, "plural": self.plural, **selector}
            if self.namespace:
                return custom.list_namespaced_custom_object, {**args, "namespace": self.namespace}
            return custom.list_cluster_custom_object, args
        core, singular = client.CoreV1Api(api), _snake(self.kind)
        if self.cluster_scoped:
            return getattr(core, f"list_{singular}"), selector
        if self.namespace:
            namespaced = {"namespace": self.namespace, **selector}
            return getattr(core, f"list_namespaced_{singular}"), namespaced
        return getattr(core, f"list_{singular}_for_all_namespaces"), selector


def _snake(kind: str) -> str:
    return "".join("_" + c.lower() if c.isupper() else c for c in kind).lstrip("_")


ListHandler = Callable[[list[dict[str, Any]]], None]
EventHandler = Callable[[WatchEvent, dict[str, Any]], None]


class Reflector:
    """LIST, then WATCH from the list's resourceVersion; re-LIST only when the watch expires.

    `on_list` sees every LIST result (controllers enqueue it; the event source ignores it).
    """

    def __init__(
        self,
        api: client.ApiClient,
        resource: WatchedResource,
        on_event: EventHandler,
        on_list: ListHandler | None = None,
    ) -> None:
        self._api, self._resource = api, resource
        self._on_event, self._on_list = on_event, on_list
        self._stopped = threading.Event()
        self._synced = threading.Event()
        self._watch: Any = None
        self.expired = 0
        """Re-watches answered 410 Gone (then a relist): for the event source, a gap."""
        self._thread = threading.Thread(target=self._run, daemon=True, name=resource.kind)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stopped.set()
        if self._watch is not None:
            self._watch.stop()
        self._thread.join(timeout=2)

    def wait_synced(self, timeout: float) -> bool:
        return self._synced.wait(timeout)

    def _run(self) -> None:
        version: str | None = None
        while not self._stopped.is_set():
            try:
                version = version or self._list()
                version = self._watch_from(version)
            except ApiException as error:
                self.expired += error.status == 410
                version = None if error.status == 410 else version
                self._stopped.wait(_RETRY_PAUSE)
            except Exception:  # the API went away or broke mid-stream: retry like client-go
                if not self._stopped.is_set():
                    log.debug("watch of %s failed; retrying", self._resource.kind, exc_info=True)
                self._stopped.wait(_RETRY_PAUSE)

    def _list(self) -> str:
        func, args = self._resource.list_call(self._api)
        response = func(**args, _preload_content=False)
        body = json.loads(response.data)
        if self._on_list is not None:
            self._on_list(body.get("items") or [])
        self._synced.set()
        return str(body["metadata"]["resourceVersion"])

    def _watch_from(self, version: str) -> str:
        func, args = self._resource.list_call(self._api)
        self._watch = _Watch()
        stream = self._watch.stream(
            func, **args, resource_version=version, timeout_seconds=_WATCH_SECONDS
        )
        for event in stream:
            if self._stopped.is_set():
                break
            obj = event["raw_object"]
            version = str(obj.get("metadata", {}).get("resourceVersion") or version)
            if event["type"] in WatchEvent.__members__:
                self._on_event(WatchEvent(event["type"]), obj)
        return version
