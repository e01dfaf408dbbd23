"""Where the last resync tick stopped, kept in the cluster so the next ping continues there.

A tick stops at its budget (`settings.ResyncSettings.budget_seconds`), below the Service's
`timeoutSeconds`: past that, queue-proxy answers 504 while the handler still runs (knative
serving `pkg/http/handler/timeout.go`, `timeoutHandler.ServeHTTP`), the delivery is retried
into a tick that is already running, and the autoscaler, seeing no request, may scale the pod
away under it. The pod scales to zero between pings (its window is seconds, the schedule
minutes), so the place the tick stopped cannot live in memory: it is one ConfigMap
(`keys.RESYNC_CURSOR_CONFIGMAP`, in resync's own namespace) naming the first host the tick did
not reach. The next tick starts there and wraps around (`pages.rotation`), so every host is
reached once a round however large the fleet. It is written only when it changes: a tick
that completes its round with no cursor stored writes nothing.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from dhcpless import keys
from dhcpless.chain.gather import fleet
from dhcpless.errors import DhcplessError
from dhcpless.kube import Kube
from dhcpless.kube.api.resources import CONFIGMAPS
from dhcpless.models.configmap import ConfigMap
from dhcpless.models.meta import ObjectMeta

log = logging.getLogger(__name__)
Key = tuple[str, str]
"""A host's place in the tick's order: (namespace, name), etcd's key order."""
FIELD = "next"
"""The ConfigMap's one key: `<namespace>/<name>` of the host the next tick starts at."""


@dataclass(frozen=True)
class Stored:
    """The cursor as read: the ConfigMap (None: there is none) and the key it names."""

    found: ConfigMap | None = None
    key: Key | None = None


def read(kube: Kube, namespace: str) -> Stored:
    """The stored cursor; unreadable (or not there), the round starts at the first host."""
    try:
        found = fleet.stored_cursor(kube, namespace)
    except DhcplessError as err:
        log.warning("resync: cursor not read, starting at the first host: %s", err.reason)
        return Stored()
    if found is None:
        return Stored()
    return Stored(found, parse(found.data.get(FIELD, "")))


def parse(text: str) -> Key | None:
    """Pure: `<namespace>/<name>`, or None when empty or malformed."""
    namespace, sep, name = text.partition("/")
    return (namespace, name) if sep and namespace and name and "/" not in name else None


def save(kube: Kube, namespace: str, stored: Stored, key: Key | None) -> None:
    """Store `key` (None: the round completed) unless it is what is stored already. A failed
    write is logged: the next tick then starts where the stored cursor says, or at the first
    host, and reaches the rest in a later tick."""
    if key == stored.key:
        return
    data = {FIELD: f"{key[0]}/{key[1]}"} if key is not None else {}
    try:
        if stored.found is None:
            ours = {keys.MANAGED_BY_LABEL: keys.MANAGED_BY_VALUE}
            meta = ObjectMeta(name=keys.RESYNC_CURSOR_CONFIGMAP, namespace=namespace, labels=ours)
            kube.create(CONFIGMAPS, ConfigMap(metadata=meta, data=data))
        else:
            kube.replace(CONFIGMAPS, stored.found.model_copy(update={"data": data}))
    except DhcplessError as err:
        log.warning("resync: cursor not stored: %s", err.reason)
