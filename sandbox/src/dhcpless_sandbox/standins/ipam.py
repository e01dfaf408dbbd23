"""IPAM controller stand-in (metal3.md §d): fulfils IPClaims from IPPools like ip-address-manager.

The reconcile loop, per pool: rebuild what is in use from the IPAddress objects and the
`preAllocations`, serve every claim of that pool in the pool's namespace that has neither an
address nor an error, release addresses of deleted claims once IPAM's finalizer is the only one
left, and mirror the allocations into `status.indexes`. A claim that failed once keeps its
`errorMessage` and is never retried, as upstream. The pure parts live beside it: `ipam_spec`,
`ip_ranges` and `allocation` (which address), `ipam_state` (what to write). `ipam_cluster`
holds a `clusterName` pool (Cluster missing or paused) and owns it by its Cluster;
`ipam_webhook` is IPAM's IPPool webhook.
"""

from __future__ import annotations

import ipaddress
import logging
import random
import time
from datetime import UTC, datetime
from typing import Any

from kubernetes import client
from kubernetes.client.exceptions import ApiException

from dhcpless import keys
from dhcpless_sandbox.controllers.controller import Controller
from dhcpless_sandbox.controllers.custom_objects import CustomObjects, ignore_missing
from dhcpless_sandbox.controllers.reflector import WatchedResource, WatchEvent
from dhcpless_sandbox.standins import ipam_cluster
from dhcpless_sandbox.standins.allocation import (
    REQUESTED_IP_ANNOTATION,
    Allocation,
    AllocationFailed,
    address_name,
    allocate,
)
from dhcpless_sandbox.standins.ipam_spec import parse_ip
from dhcpless_sandbox.standins.ipam_state import (
    API_VERSION,
    PoolState,
    address_object,
    indexes_status,
    pending_claims,
    pool_state,
)

log = logging.getLogger(__name__)

PoolKey = tuple[str, str]
"""(namespace, pool name): the unit IPAM reconciles."""

_RESOURCES = (("IPPool", "ippools"), ("IPClaim", "ipclaims"), ("IPAddress", "ipaddresses"))
_CONFLICT_REQUEUE = 0.05
CAPI_GROUP = "cluster.x-k8s.io"


class IPAMController(Controller[PoolKey]):
    """Watches IPPools, IPClaims and IPAddresses and reconciles one pool at a time.

    Knobs for fault injection: `delay` seconds before each allocation (a slow controller),
    `failing` (every reconcile fails and is retried with backoff, as a crash-looping pod).
    `seed` drives `allocationStrategy: random` pools, so a sandbox run can be repeated.
    """

    def __init__(self, api: client.ApiClient, *, delay: float = 0.0, seed: int = 0) -> None:
        self._objects = CustomObjects(api, keys.IPAM_GROUP, keys.IPAM_VERSION)
        self._clusters = [CustomObjects(api, CAPI_GROUP, v) for v in ("v1beta2", "v1beta1")]
        self.delay, self.failing = delay, False
        self._random = random.Random(seed)  # `allocationStrategy: random`, reproducible
        self.allocated = 0
        watched = [WatchedResource(API_VERSION, kind, plural) for kind, plural in _RESOURCES]
        super().__init__(api, "ipam", watched)

    def _on_event(self, _: WatchEvent, obj: dict[str, Any]) -> None:
        namespace = obj.get("metadata", {}).get("namespace", "")
        if obj.get("kind") == "IPPool":
            self._queue.add((namespace, obj["metadata"]["name"]))
        elif pool := (obj.get("spec", {}).get("pool") or {}).get("name"):
            self._queue.add((namespace, pool))

    def reconcile(self, key: PoolKey) -> float | None:
        """Serve every pending claim of one pool; None means nothing to redo."""
        if self.failing:
            raise RuntimeError("IPAM controller is failing (fault injection)")
        namespace, name = key
        pool = self._objects.get("ippools", namespace, name)
        if pool is None:
            return None
        held, pool = ipam_cluster.hold(self._objects, self._clusters, pool)  # missing, paused
        if held is not None:
            return held.requeue
        state = pool_state(pool, self._objects.list_items("ipaddresses", namespace))
        if pool["metadata"].get("deletionTimestamp"):
            return self._finish_pool_deletion(pool, state)
        self._objects.ensure_finalizer("ippools", pool, keys.IPAM_POOL_FINALIZER)
        for claim in pending_claims(name, self._objects.list_items("ipclaims", namespace)):
            self._serve(state, claim)
        status = indexes_status(pool, state.allocations, datetime.now(UTC))
        if status is not None:
            self._patch_status("ippools", namespace, name, status)
        return None

    def _serve(self, state: PoolState, claim: dict[str, Any]) -> None:
        name = claim["metadata"]["name"]
        try:
            if claim["metadata"].get("deletionTimestamp"):
                self._release(state, claim)
                return
            claim = self._objects.ensure_finalizer("ipclaims", claim, keys.IPAM_CLAIM_FINALIZER)
            status = self._fulfil(state, claim)
        except AllocationFailed as failure:
            log.info("IPClaim %s/%s: %s", state.namespace, name, failure)
            status = {"errorMessage": str(failure)}
        if status:
            self._patch_status("ipclaims", state.namespace, name, status)

    def _fulfil(self, state: PoolState, claim: dict[str, Any]) -> dict[str, Any]:
        name = claim["metadata"]["name"]
        if name not in state.allocations:
            if self.delay:
                time.sleep(self.delay)
            requested = (claim["metadata"].get("annotations") or {}).get(REQUESTED_IP_ANNOTATION)
            pick = self._random.randrange
            allocation = allocate(state.spec, name, requested, state.in_use, pick, state.cursors)
            if not self._create_address(state, claim, allocation):
                return {}
            state.allocations[name] = allocation.address
            state.in_use.add(ipaddress.ip_address(allocation.address))
        address = address_name(state.spec.name_prefix, state.allocations[name])
        return {"address": {"name": address, "namespace": state.namespace}}

    def _create_address(self, state: PoolState, claim: dict[str, Any], got: Allocation) -> bool:
        body = address_object(state, claim["metadata"], got)
        try:
            self._objects.create("ipaddresses", state.namespace, body)
        except ApiException as error:
            if error.status == 409:  # someone raced us: requeue with the new state, as upstream
                self._queue.add((state.namespace, state.name), _CONFLICT_REQUEUE)
                return False
            raise AllocationFailed("Failed to create associated IPAddress object") from error
        self.allocated += 1
        return True

    def _release(self, state: PoolState, claim: dict[str, Any]) -> None:
        finalizers = claim["metadata"].get("finalizers") or []
        if any(f != keys.IPAM_CLAIM_FINALIZER for f in finalizers):
            return  # still in use by someone else
        name = claim["metadata"]["name"]
        if name in state.allocations:
            address_obj = address_name(state.spec.name_prefix, state.allocations[name])
            self._drop_address(state.namespace, address_obj)
            released = parse_ip(state.allocations.pop(name))
            if released is not None and name not in state.spec.pre_allocations:
                state.in_use.discard(released)
                state.cursors.clear()  # a scan may find the freed address again
        self._objects.remove_finalizer("ipclaims", claim, keys.IPAM_CLAIM_FINALIZER)

    def _drop_address(self, namespace: str, name: str) -> None:
        address = self._objects.get("ipaddresses", namespace, name)
        if address is not None:
            self._objects.remove_finalizer("ipaddresses", address, keys.IPAM_ADDRESS_FINALIZER)
            ignore_missing(lambda: self._objects.delete("ipaddresses", namespace, name))

    def _finish_pool_deletion(self, pool: dict[str, Any], state: PoolState) -> float | None:
        """ip-address-manager `controllers/ippool_controller.go` `reconcileDelete`: the same
        `UpdateAddresses` as ever (a deleting pool still serves new claims and releases the
        claims being deleted), then the finalizer dropped once no allocation is left, so a
        namespace holding pool and claims finishes terminating."""
        for claim in pending_claims(
            state.name, self._objects.list_items("ipclaims", state.namespace)
        ):
            self._serve(state, claim)
        if state.allocations:
            return 1.0
        self._objects.remove_finalizer("ippools", pool, keys.IPAM_POOL_FINALIZER)
        return None

    def _patch_status(self, plural: str, namespace: str, name: str, status: Any) -> None:
        ignore_missing(lambda: self._objects.patch_status(plural, namespace, name, status))
