"""CAPM3 stand-in: a provisioning run with CAPM3's names, claim lookup, ownership and order.

For every `available`, unpaused, unconsumed host of the namespace it plays what CAPM3 does when
a Machine picks the host: the Metal3Machine, `spec.consumerRef`, the Metal3DataClaim and the
Metal3Data `<template>-<index>`, then per pool `ensureM3IPClaim`/`addressFromM3Claim`
(`capm3_data` cites upstream; `capm3_objects` has the shapes; `by_host`: claims named
`<bmh>-<pool>`, as with `--enable-bmh-name-based-preallocation`). It requeues after `REQUEUE`
(upstream `requeueAfter`, 30 s) and on every IPClaim event (the Metal3Data controller watches
IPClaims); `requeues` counts the looks per Metal3Data, `blocked` per claim not its own, `failed`
the Metal3Data failed on a claim's `status.errorMessage`. With every address it renders the
template's networkData with the chain's renderer (as CAPM3's `renderNetworkData`), writes
`<metal3data>-networkdata` and sets the host's `spec.image` and `spec.networkData`
(`metal3machine_manager.go` `setHostSpec`); BMO then deploys. `deployed` records the addresses
each host was provisioned with, `data_of` its Metal3Data. `deprovision` undoes it in upstream's
order (`capm3_teardown`); `released` lists the claims CAPM3 deleted (by label or by name).
"""

from __future__ import annotations

import logging
import threading
from collections import Counter
from collections.abc import Sequence
from typing import Any, cast

from kubernetes import client
from kubernetes.client.exceptions import ApiException

from dhcpless import keys
from dhcpless.keys import ProvisioningState
from dhcpless_sandbox.controllers.controller import Controller
from dhcpless_sandbox.controllers.custom_objects import CustomObjects
from dhcpless_sandbox.controllers.reflector import WatchedResource, WatchEvent
from dhcpless_sandbox.standins import capm3_data as steps
from dhcpless_sandbox.standins import capm3_objects as objects
from dhcpless_sandbox.standins import capm3_teardown as teardown
from dhcpless_sandbox.standins.bmh_status import provisioning_state
from dhcpless_sandbox.standins.capm3_objects import machine_name
from dhcpless_sandbox.standins.reusing_product.capm3_render import network_data

log = logging.getLogger(__name__)

HostKey = tuple[str, str]
Obj = dict[str, Any]
TEMPLATE = "preprov"
"""The Metal3DataTemplate the Metal3Machines name by default (the demo inventory's)."""
REQUEUE = 0.1
"""Seconds between looks while a claim is not usable yet (upstream `requeueAfter`: 30 s)."""
FAILED_REQUEUE = 2.0
"""Seconds before a failed Metal3Data is looked at again (upstream: the error backoff)."""
FAILED = "failed"
"""`_address`'s answer for a claim of its own that IPAM failed."""


class CAPM3Controller(Controller[HostKey]):
    """Provisions available hosts; `deployed[host]` is `{pool: address}` once it could."""

    def __init__(
        self,
        api: client.ApiClient,
        pools: Sequence[str],
        template: str = TEMPLATE,
        *,
        by_host: bool = False,
    ) -> None:
        self._hosts = CustomObjects(api, keys.BMO_GROUP, keys.BMO_VERSION)
        self._ipam = CustomObjects(api, keys.IPAM_GROUP, keys.IPAM_VERSION)
        self._capm3 = CustomObjects(api, keys.CAPM3_GROUP, keys.CAPM3_VERSION)
        self._core = client.CoreV1Api(api)
        self.pools, self.template, self.by_host = tuple(pools), template, by_host
        self.claimed: set[str] = set()
        self.blocked: Counter[str] = Counter()
        self.requeues: Counter[str] = Counter()
        """Metal3Data name -> looks at a claim it could not use (not ours, no address yet)."""
        self.failed: dict[str, str] = {}
        """Metal3Data name -> its `status.errorMessage` (a claim of its own IPAM failed)."""
        self.deployed: dict[str, dict[str, str]] = {}
        self.data_of: dict[str, str] = {}
        """Host -> the Metal3Data made for it (`<template>-<index>`)."""
        self.released: list[str] = []
        """Claims `releaseAddressFromM3Pool` deleted, in order (by label or by name)."""
        self.held: set[str] = set()
        """Hosts deprovisioned for good: no new Machine picks them."""
        self._leaving: set[HostKey] = set()
        """Hosts deprovisioning: `consumerRef` goes once BMO is done (`teardown.dissociate`)."""
        self._waiting: set[HostKey] = set()
        self._lock = threading.Lock()
        gv = f"{keys.BMO_GROUP}/{keys.BMO_VERSION}"
        ipam = f"{keys.IPAM_GROUP}/{keys.IPAM_VERSION}"
        super().__init__(
            api,
            "capm3",
            [
                WatchedResource(gv, "BareMetalHost", "baremetalhosts"),
                WatchedResource(ipam, "IPClaim", "ipclaims"),
            ],
        )

    def _on_event(self, kind: WatchEvent, obj: Obj) -> None:
        meta = obj.get("metadata", {})
        if obj.get("kind") == "IPClaim" or "pool" in (obj.get("spec") or {}):
            # any claim may be the one a Metal3Data waits for
            with self._lock:
                waiting = list(self._waiting)
            for key in waiting:
                self._queue.add(key)
        elif kind is not WatchEvent.DELETED:
            self._queue.add((meta.get("namespace", ""), meta.get("name", "")))

    def reconcile(self, key: HostKey) -> float | None:
        namespace, name = key
        host = self._hosts.get("baremetalhosts", namespace, name)
        if key in self._leaving:
            return self._leave(key, host)
        with self._lock:
            done = name in self.deployed or name in self.held
        if host is None or done or not _provisionable(host, machine_name(name)):
            return None
        data = steps.metal3data(self._hosts, self._capm3, namespace, name, self.template)
        if data is None:
            return REQUEUE
        with self._lock:
            self.data_of[name] = data["metadata"]["name"]
        found = {pool: self._look(name, pool, data) for pool in self.pools}
        if any(a == FAILED for a in found.values()):
            return FAILED_REQUEUE
        addresses = {pool: a for pool, a in found.items() if isinstance(a, dict)}
        if len(addresses) < len(found):
            with self._lock:
                self.requeues[data["metadata"]["name"]] += 1
                self._waiting.add(key)
            return REQUEUE
        self._set_host_spec(namespace, host, data, addresses)
        with self._lock:
            self._waiting.discard(key)
            self.deployed[name] = {p: str(a["spec"]["address"]) for p, a in addresses.items()}
        return None

    def _leave(self, key: HostKey, host: Obj | None) -> float | None:
        """`Delete`'s wait: `consumerRef` stays until the host left the provisioning states."""
        if host is not None and provisioning_state(host) in teardown.WAITING:
            return REQUEUE
        if host is not None:
            teardown.dissociate(self._hosts, self._capm3, *key)
        with self._lock:
            self._leaving.discard(key)
        return REQUEUE if host is not None else None  # a Machine may pick it again

    def _look(self, name: str, pool: str, data: Obj) -> Obj | str | None:
        """One pool (`capm3_data.address`), counted: the IPAddress, None, or `FAILED`."""
        looked = steps.address(self._ipam, self._capm3, name, pool, data, by_host=self.by_host)
        with self._lock:
            if looked.created:
                self.claimed.add(looked.created)
            if looked.blocked:
                log.info("IPClaim %s: same name, different UID; requeue", looked.blocked)
                self.blocked[looked.blocked] += 1
            if looked.failed:
                self.failed[data["metadata"]["name"]] = looked.failed
        return FAILED if looked.failed else looked.address

    def _set_host_spec(
        self, namespace: str, host: Obj, data: Obj, addresses: dict[str, Obj]
    ) -> None:
        """The rendered Secret, then `spec.image` and `spec.networkData` (`setHostSpec`)."""
        template = self._capm3.get("metal3datatemplates", namespace, self.template)
        document = network_data(template or {}, host, addresses)
        secret = objects.network_data_secret(data, document)
        try:
            self._core.create_namespaced_secret(namespace, cast(Any, secret))
        except ApiException as error:
            if error.status != 409:
                raise
        ref = {"name": secret["metadata"]["name"], "namespace": namespace}
        spec = {"image": objects.IMAGE, "networkData": ref}
        self._hosts.patch("baremetalhosts", namespace, host["metadata"]["name"], {"spec": spec})

    def hold(self, *hosts: str) -> None:
        """No Machine picks these hosts until `allow` (a test orders the picks with it)."""
        with self._lock:
            self.held |= set(hosts)

    def allow(self, namespace: str, host: str) -> None:
        """A Machine may pick `host` now (held before)."""
        with self._lock:
            self.held.discard(host)
        self._queue.add((namespace, host))

    def deprovision(self, namespace: str, host: str, *, again: bool = True) -> list[str]:
        """As CAPM3 on Metal3Machine deletion (`capm3_teardown`): the Metal3Data and its claims
        go (returned: the claims deleted), the host's image and networkData are cleared (BMO
        cleans), and `consumerRef` goes once BMO is done. `again=False`: no Machine picks the
        host again."""
        with self._lock:
            self.deployed.pop(host, None)
            self.data_of.pop(host, None)
            self.held |= set() if again else {host}
            self._leaving.add((namespace, host))
        deleted = teardown.release(
            self._hosts, self._ipam, self._capm3, namespace, host, self.pools
        )
        with self._lock:
            self.released += deleted
        self._queue.add((namespace, host))
        return deleted


def _provisionable(host: Obj, machine: str) -> bool:
    """Available, not paused, and not consumed by another Machine."""
    annotations = host["metadata"].get("annotations") or {}
    consumer = ((host.get("spec") or {}).get("consumerRef") or {}).get("name", machine)
    return (
        keys.PAUSED_ANNOTATION not in annotations
        and provisioning_state(host) == ProvisioningState.AVAILABLE.value
        and consumer == machine
    )
