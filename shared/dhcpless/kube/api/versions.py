"""Which version of a kind served at several (`kube.api.resources.Versioned`) this API server
serves: the first of its versions in preference order whose discovery lists the kind, else
the last (also when none does: the request then says so).

Cluster API serves v1beta2 (storage) and still v1beta1 (deprecated, to be removed; the only
version of older installations). The chain writes and lists claims, reads IPAddresses and asks
whether a Cluster exists at v1beta2 when served, else at v1beta1: one discovery GET per API
server, group and version in a process, again after `TTL` seconds (a CAPI upgrade or downgrade
is seen without a restart). The shapes the chain uses (`spec.poolRef` apiGroup/kind/name,
`status.addressRef.name`, an IPAddress's address, prefix and gateway) are the same at both.
Discovery is one GET of `/apis/<group>/<version>` through the adapter's request path
(`kube.transport.core`), as kubectl's discovery client reads an `APIResourceList`.
"""

from __future__ import annotations

import threading
import time
from typing import Any, Final

from kubernetes.client import ApiClient

from dhcpless.errors import Gone
from dhcpless.kube.api.resources import M, Resource, Versioned
from dhcpless.kube.transport import core
from dhcpless.kube.transport.errors import Verb, translated

TTL: Final = 300.0
_lock = threading.Lock()
_served: dict[tuple[str, str, str], tuple[float, frozenset[str]]] = {}
"""By (API server, group, version): when discovered, and the plurals it serves."""


def preferred(api: ApiClient, kind: Versioned[Any]) -> str:
    """The first of `kind.versions` the server serves `kind` at, else the last."""
    found = (v for v in kind.versions[:-1] if kind.plural in plurals(api, kind.group, v))
    return next(found, kind.versions[-1])


def served_at(api: ApiClient, kind: Versioned[M]) -> Resource[M]:
    """`kind`'s descriptor at the version the server serves it at (`preferred`)."""
    return kind.at(preferred(api, kind))


def plurals(api: ApiClient, group: str, version: str) -> frozenset[str]:
    """The resources `group/version` serves (none when the server does not serve it), from the
    answer of the last `TTL` seconds when there is one."""
    key, now = (str(api.configuration.host), group, version), time.monotonic()
    with _lock:
        hit = _served.get(key)
    if hit is not None and now - hit[0] < TTL:
        return hit[1]
    found = _discover(api, group, version)
    with _lock:
        _served[key] = (now, found)
    return found


def _discover(api: ApiClient, group: str, version: str) -> frozenset[str]:
    try:
        with translated(Verb.GET, f"{group}/{version} discovery"):
            answer = core.request(api, "GET", f"/apis/{group}/{version}", {})
    except Gone:
        return frozenset()
    resources = answer.get("resources") if isinstance(answer, dict) else None
    return frozenset(str(r.get("name")) for r in resources or () if isinstance(r, dict))


def forget() -> None:
    """Drop every answer (tests that change what a server serves)."""
    with _lock:
        _served.clear()
