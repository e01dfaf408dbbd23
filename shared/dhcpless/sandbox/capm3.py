"""CAPM3 stand-in for the IP lifecycle (metal3.md §c.2, §c.6): what provisioning claims.

Exists to show the common-pool scenario end to end: CAPM3 running with
`--enable-bmh-name-based-preallocation` claims IPClaim `<bmh>-<pool>` for a host it is about
to provision, owned by its Metal3Data. Here: for every `available`, unpaused host of the
namespace and every configured pool, once no claim of that name exists, create one owned by a
fake Metal3Data (an owner reference only: the sandbox collects dependents only when an owner
is deleted). A claim of that name it does not own blocks it, as upstream: it requeues,
"hoping it will go away", and never adopts or deletes it.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Sequence
from typing import Any

from kubernetes import client
from kubernetes.client.exceptions import ApiException

from dhcpless import keys
from dhcpless.keys import ProvisioningState
from dhcpless.sandbox.bmh_status import provisioning_state
from dhcpless.sandbox.controller import Controller
from dhcpless.sandbox.custom_objects import CustomObjects
from dhcpless.sandbox.reflector import WatchedResource, WatchEvent

log = logging.getLogger(__name__)

HostKey = tuple[str, str]
BLOCKED_REQUEUE = 0.1
"""Seconds between looks while a foreign `<bmh>-<pool>` claim blocks (upstream: 30 s)."""


def metal3data_uid(namespace: str, host: str) -> str:
    """The fake Metal3Data's UID: stable per host, so ownership is checkable."""
    return str(uuid.uuid5(uuid.NAMESPACE_URL, f"metal3data/{namespace}/{host}"))


def capm3_claim(namespace: str, host: str, pool: str) -> dict[str, Any]:
    """IPClaim `<bmh>-<pool>` as CAPM3's `m3IPClaimObjectMeta` writes it (no annotations)."""
    data = f"{host}-data"
    owner = {
        "apiVersion": f"{keys.CAPM3_GROUP}/{keys.CAPM3_VERSION}",
        "kind": "Metal3Data",
        "name": data,
        "uid": metal3data_uid(namespace, host),
        "controller": True,
    }
    labels = {keys.CAPM3_DATA_NAME_LABEL: data, keys.CAPM3_POOL_NAME_LABEL: pool}
    meta = {"name": f"{host}-{pool}", "namespace": namespace, "labels": labels}
    return {
        "apiVersion": f"{keys.IPAM_GROUP}/{keys.IPAM_VERSION}",
        "kind": "IPClaim",
        "metadata": {**meta, "ownerReferences": [owner], "finalizers": [keys.CAPM3_DATA_FINALIZER]},
        "spec": {"pool": {"name": pool, "namespace": namespace}},
    }


class CAPM3Controller(Controller[HostKey]):
    """Claims `<bmh>-<pool>` from each of `pools` for available hosts; `claimed` says which."""

    def __init__(self, api: client.ApiClient, pools: Sequence[str]) -> None:
        self._hosts = CustomObjects(api, keys.BMO_GROUP, keys.BMO_VERSION)
        self._ipam = CustomObjects(api, keys.IPAM_GROUP, keys.IPAM_VERSION)
        self.pools = tuple(pools)
        self.claimed: set[str] = set()
        self.blocked: set[str] = set()
        gv = f"{keys.BMO_GROUP}/{keys.BMO_VERSION}"
        super().__init__(api, "capm3", [WatchedResource(gv, "BareMetalHost", "baremetalhosts")])

    def _on_event(self, kind: WatchEvent, obj: dict[str, Any]) -> None:
        meta = obj.get("metadata", {})
        if kind is not WatchEvent.DELETED:
            self._queue.add((meta.get("namespace", ""), meta.get("name", "")))

    def reconcile(self, key: HostKey) -> float | None:
        host = self._hosts.get("baremetalhosts", *key)
        if host is None or not _provisionable(host):
            return None
        waiting = [pool for pool in self.pools if not self._ensure(key, pool)]
        return BLOCKED_REQUEUE if waiting else None

    def _ensure(self, key: HostKey, pool: str) -> bool:
        """True once our claim exists; False while someone else's claim has the name."""
        namespace, host = key
        name = f"{host}-{pool}"
        found = self._ipam.get("ipclaims", namespace, name)
        if found is None:
            try:
                self._ipam.create("ipclaims", namespace, capm3_claim(namespace, host, pool))
            except ApiException as error:
                if error.status != 409:
                    raise
                return False
            self.claimed.add(name)
            self.blocked.discard(name)
            return True
        owned = _owned(found, metal3data_uid(namespace, host))
        if not owned:
            log.info("IPClaim %s/%s: same name, different owner; requeue", namespace, name)
            self.blocked.add(name)
        return owned


def _provisionable(host: dict[str, Any]) -> bool:
    annotations = host["metadata"].get("annotations") or {}
    return (
        keys.PAUSED_ANNOTATION not in annotations
        and provisioning_state(host) == ProvisioningState.AVAILABLE.value
    )


def _owned(claim: dict[str, Any], uid: str) -> bool:
    return any(ref.get("uid") == uid for ref in claim["metadata"].get("ownerReferences") or [])
