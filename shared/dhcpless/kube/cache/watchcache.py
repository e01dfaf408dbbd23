"""A watch-backed cache of the fleet-wide objects every invocation reads again: the
Metal3MachineTemplates that select hosts, the Metal3DataTemplates they name and the IPPools.

What controller-runtime's default client does (sigs.k8s.io/controller-runtime `pkg/cache`:
reads of a kind come from an informer, one per kind and namespace), built on our reflector
(`kube.cache.informer`). Started lazily, on the first read of each kind and namespace in this
process, never at import or app creation: gunicorn forks its worker after loading the
config, and threads do not survive a fork (a cache used before a fork starts again in the
child). Reads wait up to `FIRST_SYNC_SECONDS` for the initial LIST (every reader that comes
meanwhile, not only the first), then read directly; once that LIST answered nothing waits:
while an informer relists, reads go to the API server.

Freshness: eventually consistent, like any informer. A change reaches the cache when its
watch event does (milliseconds on a healthy API server); the README ("Watch cache") states
the bound and what it means for the release decision. Threads are daemons; `stop` (also at
exit) closes every open stream.
"""

from __future__ import annotations

import atexit
import os
import threading
from typing import Any, Final

from kubernetes.client import ApiClient

from dhcpless import limits
from dhcpless.keys import FunctionName
from dhcpless.kube.api import resources as r
from dhcpless.kube.api.resources import Raw, Resource
from dhcpless.kube.cache.informer import Informer
from dhcpless.kube.transport import timeouts
from dhcpless.models.refs import TemplateKind

Key = tuple[str, str, str]
FIRST_SYNC_SECONDS: Final = 2.0
OFF_VALUES: Final = frozenset({"off", "false", "0", "no"})
ON_VALUES: Final = frozenset({"", "on", "true", "1", "yes"})


def _key(res: Resource[Any], namespace: str) -> Key:
    return (res.group, res.plural, namespace)


CACHED: Final = frozenset(
    (res.group, res.plural)
    for res in (r.MACHINE_TEMPLATES, r.TEMPLATES[TemplateKind.METAL3_DATA_TEMPLATE], r.IPPOOLS)
)
"""The kinds served from the cache by default; every other read goes to the API server."""
ADDRESSES: Final = frozenset({(r.IPADDRESSES.group, r.IPADDRESSES.plural)})
"""Metal3 IPAddresses, for the function that renders as IPAM answers (its Role may watch
them): read from the cache only when the copy is the one IPAM made for the claim at hand
(`chain.gather.lookup`), else directly."""
BY_FUNCTION: Final = {FunctionName.IPCLAIM_FULFILMENT.value: CACHED | ADDRESSES}


def kinds_for(function: str | None) -> frozenset[tuple[str, str]]:
    """The kinds `function`'s pod caches (its Role grants `list` and `watch` on them)."""
    return BY_FUNCTION.get(function or "", CACHED)


def enabled(value: str | None) -> bool:
    """The environment switch (`keys.WATCH_CACHE_ENV`): on unless off; a typo stops the app."""
    text = (value or "").strip().lower()
    if text not in OFF_VALUES | ON_VALUES:
        raise ValueError(f"watch cache switch: expected on or off, got {value!r}")
    return text not in OFF_VALUES


class WatchCache:
    """Informers by (group, plural, namespace), started on first use in this process."""

    def __init__(
        self,
        api: ApiClient,
        first_sync: float = FIRST_SYNC_SECONDS,
        kinds: frozenset[tuple[str, str]] = CACHED,
    ) -> None:
        self.api = timeouts.bounded(api, limits.API_TIMEOUT)
        self.first_sync, self.kinds = first_sync, kinds
        self._informers: dict[Key, Informer] = {}
        self._lock = threading.Lock()
        self._pid = os.getpid()
        self._exit_hook = False

    def items(self, res: Resource[Any], namespace: str) -> dict[str, Raw] | None:
        """The objects by name, or None: not a cached kind, not synced yet, or not allowed."""
        if (res.group, res.plural) not in self.kinds:
            return None
        informer = self._informer(res, namespace)
        informer.tried.wait(self.first_sync)  # only until the first LIST answered
        return None if informer.disabled else informer.items()

    def find(self, res: Resource[Any], namespace: str, name: str) -> Raw | None:
        """One object by name, or None: not a cached kind, not synced, not allowed, not held."""
        if (res.group, res.plural) not in self.kinds:
            return None
        informer = self._informer(res, namespace)
        informer.tried.wait(self.first_sync)  # only until the first LIST answered
        return None if informer.disabled else informer.find(name)

    def informers(self) -> list[Informer]:
        with self._lock:
            return list(self._informers.values())

    def stop(self) -> None:
        for informer in self.informers():
            informer.stop()

    def _informer(self, res: Resource[Any], namespace: str) -> Informer:
        with self._lock:
            if self._pid != os.getpid():  # forked: the parent's threads are not here
                self._informers, self._pid = {}, os.getpid()
            found = self._informers.get(_key(res, namespace))
            if found is not None:
                return found
            informer = self._informers[_key(res, namespace)] = Informer(self.api, res, namespace)
            if not self._exit_hook:
                atexit.register(self.stop)
                self._exit_hook = True
        informer.start()
        return informer
