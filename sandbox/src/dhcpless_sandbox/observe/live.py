"""Which hosts exist and are not being deleted, kept from a watch (names only).

The judges (`Observer`, `WireWatch`) need the live hosts on every sample; listing every host
twice a second cost the one process the world shares more than the chain's own reads. This
is an informer's store reduced to names: each LIST (`Reflector`'s `on_list`, also after a
relist) replaces it, each watch event updates it.
"""

from __future__ import annotations

import threading
from typing import Any

from dhcpless_sandbox.controllers.reflector import WatchEvent

JSON = dict[str, Any]


class LiveHosts:
    """Feed it a reflector's lists and events; `names()` is a snapshot."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._names: set[str] = set()

    def names(self) -> set[str]:
        with self._lock:
            return set(self._names)

    def listed(self, hosts: list[JSON]) -> None:
        with self._lock:
            self._names = {h["metadata"]["name"] for h in hosts if alive(h)}

    def changed(self, kind: WatchEvent, host: JSON) -> None:
        with self._lock:
            if kind is not WatchEvent.DELETED and alive(host):
                self._names.add(host["metadata"]["name"])
            else:
                self._names.discard(host["metadata"]["name"])


def alive(host: JSON) -> bool:
    return not host["metadata"].get("deletionTimestamp")
