"""Which `ipam.cluster.x-k8s.io` version this API server serves IPAddressClaims at.

Cluster API serves v1beta2 (storage) and still v1beta1 (deprecated, to be removed; the only
version of older installations). The chain writes and lists claims, and reads IPAddresses, at
v1beta2 when served, else at v1beta1: one discovery GET per API server and process, again after
`TTL` seconds (a CAPI upgrade or downgrade is seen without a restart). The shapes the chain
uses (`spec.poolRef` apiGroup/kind/name, `status.addressRef.name`, an IPAddress's address,
prefix and gateway) are the same at both versions.
"""

from __future__ import annotations

import threading
import time
from typing import Final

from kubernetes.client import ApiClient

from dhcpless import keys
from dhcpless.errors import Gone
from dhcpless.kube.transport.errors import Verb, translated

VERSIONS: Final = ("v1beta2", "v1beta1")
"""Preferred first."""
TTL: Final = 300.0
_lock = threading.Lock()
_resolved: dict[str, tuple[float, str]] = {}


def served(api: ApiClient, version: str) -> bool:
    """Does the API serve IPAddressClaims at `ipam.cluster.x-k8s.io/<version>` (discovery)?"""
    from kubernetes.client import CustomObjectsApi

    try:
        with translated(Verb.GET, f"{keys.CAPI_IPAM_GROUP}/{version} discovery"):
            found = CustomObjectsApi(api).get_api_resources(keys.CAPI_IPAM_GROUP, version)
    except Gone:
        return False
    return any(r.name == "ipaddressclaims" for r in (found.resources or []))


def ipam_version(api: ApiClient) -> str:
    """v1beta2 when served, else v1beta1 (also when neither is: the request then says so)."""
    host, now = str(api.configuration.host), time.monotonic()
    with _lock:
        hit = _resolved.get(host)
    if hit is not None and now - hit[0] < TTL:
        return hit[1]
    version = next((v for v in VERSIONS[:-1] if served(api, v)), VERSIONS[-1])
    with _lock:
        _resolved[host] = (now, version)
    return version


def forget() -> None:
    """Drop every answer (tests that change what a server serves)."""
    with _lock:
        _resolved.clear()
