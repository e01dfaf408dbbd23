"""Names by (kind, namespace, label key, value): the candidates of a LIST whose selector has an
equality requirement, so that listing one host's claims reads that host's objects, not the
fleet's (issue 28: every answered claim LISTs its host's claims, and scanning every claim of a
5,000-host namespace each time made the sandbox's work grow with the square of the fleet).

kube-apiserver serves such a LIST from its watch cache by a scan too, but in Go; the sandbox
only has to keep up with the chain it stands beside. The index is a superset, never an
answer: it may name an object whose label changed in place or that is gone, and the LIST still
runs the whole selector on each candidate, so what it returns is what a scan would.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

Key = tuple[tuple[str, str], str, str, str]
"""(storage key, namespace, label key, label value)."""


def _labels(obj: dict[str, Any]) -> Iterator[tuple[str, str, str]]:
    meta = obj.get("metadata") or {}
    for label, value in (meta.get("labels") or {}).items():
        yield meta.get("namespace", ""), str(label), str(value)


class LabelIndex:
    """Held under the store's lock (not thread-safe by itself)."""

    def __init__(self) -> None:
        self._names: dict[Key, set[str]] = {}

    def add(self, key: tuple[str, str], obj: dict[str, Any]) -> None:
        name = obj["metadata"]["name"]
        for namespace, label, value in _labels(obj):
            self._names.setdefault((key, namespace, label, value), set()).add(name)

    def drop(self, key: tuple[str, str], obj: dict[str, Any]) -> None:
        name = obj["metadata"]["name"]
        for namespace, label, value in _labels(obj):
            names = self._names.get((key, namespace, label, value))
            if names is not None:
                names.discard(name)
                if not names:
                    del self._names[(key, namespace, label, value)]

    def names(self, key: tuple[str, str], namespace: str, label: str, value: str) -> set[str]:
        """The names that may carry `label=value` (a superset: check each)."""
        return self._names.get((key, namespace, label, value), set())
