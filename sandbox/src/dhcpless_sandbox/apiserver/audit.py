"""Request accounting: who asked for what, so least-privilege RBAC can be derived later."""

from __future__ import annotations

import threading
from collections import Counter
from dataclasses import dataclass


@dataclass(frozen=True)
class AuditRecord:
    """One resource request, in the terms RBAC rules use."""

    identity: str
    verb: str
    api_group: str
    resource: str
    subresource: str
    namespace: str
    name: str
    selector: str = ""
    """The request's `labelSelector` (lists): tells apart two LISTs of one resource."""


class Audit:
    """Thread-safe log of resource requests with counts by verb."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._records: list[AuditRecord] = []
        self._non_resource = 0

    def record(self, entry: AuditRecord) -> None:
        with self._lock:
            self._records.append(entry)

    def record_non_resource(self) -> None:
        """Discovery, OpenAPI, /version: counted, but not part of any RBAC rule on resources."""
        with self._lock:
            self._non_resource += 1

    @property
    def records(self) -> list[AuditRecord]:
        with self._lock:
            return list(self._records)

    @property
    def counts(self) -> Counter[str]:
        """Resource requests by verb (get, list, watch, create, update, patch, delete, ...)."""
        with self._lock:
            return Counter(r.verb for r in self._records)

    @property
    def total(self) -> int:
        with self._lock:
            return len(self._records)

    @property
    def non_resource(self) -> int:
        with self._lock:
            return self._non_resource

    def reset(self) -> None:
        with self._lock:
            self._records.clear()
            self._non_resource = 0
