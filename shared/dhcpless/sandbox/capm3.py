"""CAPM3 stand-in: a provisioning run with CAPM3's claim lookup and ownership rules.

For every `available`, unpaused host of the namespace it plays what CAPM3 does when a
Metal3Machine picks the host (`baremetal/metal3machine_manager.go`): `spec.consumerRef` to the
Metal3Machine `<host>-m3m`, then a real Metal3Data whose `spec.claim` names the Metal3DataClaim
of that name. Per configured pool it then follows `baremetal/metal3data_manager.go`
`ensureM3IPClaim`: GET `<metal3data>-<pool>`, else GET `<bmh>-<pool>` (whatever the BMH-name
pre-allocation flag says), else create `<bmh>-<pool>` owned (as controller) by the Metal3Data.
A claim is used only when one of its ownerReferences has the Metal3Data's UID
(`addressFromM3Claim`); any other claim of that name makes it requeue "hoping it will go away"
— `blocked` counts those looks, `deployed` records the address each host was provisioned with.
`deprovision` deletes the Metal3Data as CAPM3 does; garbage collection removes its own claims
(and never one with a live second owner).
"""

from __future__ import annotations

import logging
import threading
from collections import Counter
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
REQUEUE = 0.1
"""Seconds between looks while a claim is not usable yet (upstream: 30 s)."""
CAPM3 = f"{keys.CAPM3_GROUP}/{keys.CAPM3_VERSION}"


def data_name(host: str) -> str:
    return f"{host}-data"


def machine_name(host: str) -> str:
    return f"{host}-m3m"


def capm3_claim(namespace: str, host: str, pool: str, data: dict[str, Any]) -> dict[str, Any]:
    """IPClaim `<bmh>-<pool>` as CAPM3's `m3IPClaimObjectMeta` writes it (no annotations)."""
    meta = data["metadata"]
    owner = {"apiVersion": CAPM3, "kind": "Metal3Data", "name": meta["name"], "uid": meta["uid"],
             "controller": True}  # fmt: skip
    labels = {keys.CAPM3_DATA_NAME_LABEL: meta["name"], keys.CAPM3_POOL_NAME_LABEL: pool}
    return {
        "apiVersion": f"{keys.IPAM_GROUP}/{keys.IPAM_VERSION}",
        "kind": "IPClaim",
        "metadata": {"name": f"{host}-{pool}", "namespace": namespace, "labels": labels,
                     "ownerReferences": [owner], "finalizers": [keys.CAPM3_DATA_FINALIZER]},
        "spec": {"pool": {"name": pool, "namespace": namespace}},
    }  # fmt: skip


class CAPM3Controller(Controller[HostKey]):
    """Provisions available hosts; `deployed[host]` is `{pool: address}` once it could."""

    def __init__(self, api: client.ApiClient, pools: Sequence[str]) -> None:
        self._hosts = CustomObjects(api, keys.BMO_GROUP, keys.BMO_VERSION)
        self._ipam = CustomObjects(api, keys.IPAM_GROUP, keys.IPAM_VERSION)
        self._capm3 = CustomObjects(api, keys.CAPM3_GROUP, keys.CAPM3_VERSION)
        self.pools = tuple(pools)
        self.claimed: set[str] = set()
        self.blocked: Counter[str] = Counter()
        self.deployed: dict[str, dict[str, str]] = {}
        self._lock = threading.Lock()
        gv = f"{keys.BMO_GROUP}/{keys.BMO_VERSION}"
        super().__init__(api, "capm3", [WatchedResource(gv, "BareMetalHost", "baremetalhosts")])

    def _on_event(self, kind: WatchEvent, obj: dict[str, Any]) -> None:
        meta = obj.get("metadata", {})
        if kind is not WatchEvent.DELETED:
            self._queue.add((meta.get("namespace", ""), meta.get("name", "")))

    def reconcile(self, key: HostKey) -> float | None:
        namespace, name = key
        host = self._hosts.get("baremetalhosts", namespace, name)
        if host is None or name in self.deployed or not _provisionable(host):
            return None
        data = self._metal3data(namespace, name, host)
        found = {pool: self._address(namespace, name, pool, data) for pool in self.pools}
        if any(a is None for a in found.values()):
            return REQUEUE
        with self._lock:
            self.deployed[name] = {p: str(a) for p, a in found.items()}
        return None

    def _metal3data(self, namespace: str, name: str, host: dict[str, Any]) -> dict[str, Any]:
        """Associate the host (consumerRef), then the Metal3Data of its Metal3Machine."""
        if not (host.get("spec") or {}).get("consumerRef"):
            ref = {"apiVersion": CAPM3, "kind": "Metal3Machine", "name": machine_name(name),
                   "namespace": namespace}  # fmt: skip
            self._hosts.patch("baremetalhosts", namespace, name, {"spec": {"consumerRef": ref}})
        found = self._capm3.get("metal3datas", namespace, data_name(name))
        if found is not None:
            return found
        body = {"apiVersion": CAPM3, "kind": "Metal3Data",
                "metadata": {"name": data_name(name), "namespace": namespace},
                "spec": {"claim": {"name": machine_name(name), "namespace": namespace},
                         "template": {"name": "provisioning", "namespace": namespace}}}  # fmt: skip
        self._capm3.create("metal3datas", namespace, body)
        return self._capm3.get("metal3datas", namespace, data_name(name)) or body

    def _address(self, namespace: str, host: str, pool: str, data: dict[str, Any]) -> str | None:
        """`ensureM3IPClaim` then `addressFromM3Claim`: the address, or None to requeue."""
        claim = self._ipam.get("ipclaims", namespace, f"{data_name(host)}-{pool}")
        claim = claim or self._ipam.get("ipclaims", namespace, f"{host}-{pool}")
        if claim is None:
            try:
                self._ipam.create("ipclaims", namespace, capm3_claim(namespace, host, pool, data))
            except ApiException as error:
                if error.status != 409:
                    raise
            self.claimed.add(f"{host}-{pool}")
            return None
        if not _owned(claim, data["metadata"].get("uid", "")):
            log.info("IPClaim %s: same name, different UID; requeue", claim["metadata"]["name"])
            with self._lock:
                self.blocked[claim["metadata"]["name"]] += 1
            return None
        ref = (claim.get("status") or {}).get("address")
        address = ref and self._ipam.get("ipaddresses", namespace, ref["name"])
        return str(address["spec"]["address"]) if address else None

    def deprovision(self, namespace: str, host: str) -> None:
        """As CAPM3 on Metal3Machine deletion: the Metal3Data goes, the host is free again."""
        with self._lock:
            self.deployed.pop(host, None)
        data = self._capm3.get("metal3datas", namespace, data_name(host)) or {"metadata": {}}
        for pool in self.pools:  # `releaseAddressFromM3Pool`: only claims it made itself
            claim = self._ipam.get("ipclaims", namespace, f"{host}-{pool}")
            labels = (claim or {"metadata": {}})["metadata"].get("labels") or {}
            if claim is not None and labels.get(keys.CAPM3_DATA_NAME_LABEL) == data_name(host):
                self._ipam.remove_finalizer("ipclaims", claim, keys.CAPM3_DATA_FINALIZER)
                self._ipam.delete("ipclaims", namespace, claim["metadata"]["name"])
        if data["metadata"]:
            self._capm3.delete("metal3datas", namespace, data_name(host))
        self._hosts.patch("baremetalhosts", namespace, host, {"spec": {"consumerRef": None}})


def _provisionable(host: dict[str, Any]) -> bool:
    annotations = host["metadata"].get("annotations") or {}
    return (
        keys.PAUSED_ANNOTATION not in annotations
        and provisioning_state(host) == ProvisioningState.AVAILABLE.value
    )


def _owned(claim: dict[str, Any], uid: str) -> bool:
    return any(ref.get("uid") == uid for ref in claim["metadata"].get("ownerReferences") or [])
