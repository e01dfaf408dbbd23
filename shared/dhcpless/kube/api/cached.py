"""Reads the adapter answers from its watch cache (`kube.cache.watchcache`) when it has one.

Same signatures, results and errors as the direct read they replace: the namespace and name
are checked as the request would check them (`kube.transport.core.check_segments`), a name the cache
does not hold is `Gone` with the message a 404 gives, and each object is parsed at read time
inside the adapter's one translation (`kube.transport.errors.translated`), so a malformed object is
the same `InvalidInput`. Whatever the cache cannot answer (a kind it does not keep, not synced,
no RBAC for `watch`) is read directly.
"""

from __future__ import annotations

from dhcpless.errors import Gone
from dhcpless.kube.api.generic import GenericKube
from dhcpless.kube.api.resources import M, Raw, Resource
from dhcpless.kube.cache import kept
from dhcpless.kube.cache.watchcache import WatchCache
from dhcpless.kube.transport import core
from dhcpless.kube.transport.errors import Verb, translated


class CachedReads(GenericKube):
    """`cached_list` / `cached_get`: from the cache when it can answer, else the API."""

    cache: WatchCache | None = None

    def cached_list(self, res: Resource[M], namespace: str) -> list[M]:
        core.check_segments({"namespace": namespace})
        items = self._held(res, namespace)
        if items is None:
            return self.list(res, namespace)
        with translated(Verb.LIST, res.what(namespace)):
            return [res.parse(items[name]) for name in sorted(items)]

    def cached_get(self, res: Resource[M], namespace: str, name: str) -> M:
        core.check_segments({"namespace": namespace, "name": name})
        items = self._held(res, namespace)
        if items is None:
            return self.get(res, namespace, name)
        if name not in items:
            raise Gone(f"{res.what(namespace, name)} not found")
        return _parsed(res, namespace, name, items[name])

    def cached_find(self, res: Resource[M], namespace: str, name: str) -> M | None:
        """The cache's copy, or None when it cannot answer or does not hold the name (the
        caller reads directly: for a kind whose objects appear just before their event, a
        name not there yet is lag, not absence)."""
        core.check_segments({"namespace": namespace, "name": name})
        found = self.cache.find(res, namespace, name) if self.cache is not None else None
        return None if found is None else _parsed(res, namespace, name, found)

    def _held(self, res: Resource[M], namespace: str) -> dict[str, Raw] | None:
        """The cache's objects of `res` in `namespace` by name; None: it cannot answer, or it
        holds only the most recent of the kind (`kube.cache.kept.limit_for`: absence says
        nothing)."""
        if self.cache is None or kept.limit_for(res) is not None:
            return None
        return self.cache.items(res, namespace)


def _parsed(res: Resource[M], namespace: str, name: str, raw: Raw) -> M:
    """One cached object parsed as a GET's answer is (a malformed one is `InvalidInput`)."""
    with translated(Verb.GET, res.what(namespace, name)):
        return res.parse(raw)
