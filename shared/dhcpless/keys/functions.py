"""The functions and the environment they are configured by."""

from __future__ import annotations

from enum import StrEnum
from typing import Final

__all__ = [
    "DEAD_LETTER_FUNCTION",
    "HANG_SECONDS_ENV",
    "METRICS_PUSH_URL_ENV",
    "NAMESPACE_ENV",
    "NAMESPACE_SELECTOR_ENV",
    "RAMDISK_PROFILE_ENV",
    "RESYNC_BUDGET_ENV",
    "RESYNC_CURSOR_CONFIGMAP",
    "RESYNC_WORKERS_ENV",
    "SERVICE_ACCOUNT_NAMESPACE_FILE",
    "WATCH_CACHE_ENV",
    "FunctionName",
]


class FunctionName(StrEnum):
    """The Knative Service names (DESIGN §3)."""

    HOST_REGISTRATION = "host-registration"
    IPCLAIM_FULFILMENT = "ipclaim-fulfilment"
    SECRET_READINESS = "secret-readiness"
    RESYNC = "resync"


DEAD_LETTER_FUNCTION: Final = "dead-letter"
"""The dead-letter sink's Service name: served by the image, but not one of `FunctionName`."""

NAMESPACE_ENV: Final = "NAMESPACE"
"""resync: the one namespace whose hosts it lists (default: the pod's own namespace)."""

NAMESPACE_SELECTOR_ENV: Final = "DHCPLESS_NAMESPACE_SELECTOR"
"""resync, cluster-wide option: a label selector on Namespaces (the sources' namespaceSelector);
set, resync lists the hosts of every namespace it selects instead of its one `NAMESPACE`."""

HANG_SECONDS_ENV: Final = "DHCPLESS_HANG_SECONDS"
"""Seconds a released host may stay inspecting before a Warning says it hangs (default 900)."""

RESYNC_WORKERS_ENV: Final = "DHCPLESS_RESYNC_WORKERS"
"""resync: how many due hosts one tick reconciles at once (default 4)."""
RAMDISK_PROFILE_ENV: Final = "DHCPLESS_RAMDISK_PROFILE"
"""Every function: the fleet's ramdisk network writer (`keys.RamdiskProfile`, default glean-el9);
a template's `RAMDISK_PROFILE_ANNOTATION` overrides it for its hosts."""

WATCH_CACHE_ENV: Final = "DHCPLESS_WATCH_CACHE"
"""`off` turns the function processes' watch cache of templates and IPPools off (default on;
`kube.watchcache`): every read is then a request, as before the cache."""

SERVICE_ACCOUNT_NAMESPACE_FILE: Final = "/var/run/secrets/kubernetes.io/serviceaccount/namespace"

METRICS_PUSH_URL_ENV: Final = "DHCPLESS_METRICS_PUSH_URL"
"""resync: a Prometheus Pushgateway group URL (`.../metrics/job/<job>`); set, every tick PUTs
the fleet gauges there (`functions.resync.fleet`). Unset: `GET /metrics` of resync only."""

RESYNC_BUDGET_ENV: Final = "DHCPLESS_RESYNC_BUDGET_SECONDS"
"""resync: seconds one tick may spend before it stops and records where (default 30: half the
Service's `timeoutSeconds`, so the hosts in flight and the remaining LISTs end before it)."""

RESYNC_CURSOR_CONFIGMAP: Final = "dhcpless-resync-cursor"
"""resync: the ConfigMap (in resync's own namespace) naming the host the next tick starts at,
written when a tick stopped at its budget (`functions.resync.cursor`)."""
