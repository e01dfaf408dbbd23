"""CAPI IPAM provider stand-in: serves `IPAddressClaim`s of `InClusterIPPool`s, in-cluster style.

Exists so the sandbox can show external IPAM end to end (`chain.external`): per pool, rebuild
what is in use from the CAPI IPAddresses, then give every claim of that pool without an address
the first free one (`allocation.allocate`, the same order as Metal3 IPAM): create the IPAddress
(named as the claim, owned by claim and pool) and set the claim's `status.addressRef`. As the
in-cluster provider, it writes no conditions on an IPAddressClaim: a pool with no address left
is a silent retry (the pool is looked at again after `EXHAUSTED_RETRY`), never `Ready=False`.
Release: deleting a claim garbage-collects its IPAddress (ownerReference), and the next
reconcile no longer counts the address as in use. It reads and writes at v1beta2, the version
Cluster API serves (v1beta1 is deprecated; the sandbox CRDs serve both, `load_crds`).
"""

from __future__ import annotations

import logging
from typing import Any

import yaml
from kubernetes import client
from kubernetes.client.exceptions import ApiException

from dhcpless import keys
from dhcpless.crds import crd_files
from dhcpless_sandbox.apiserver.server import SandboxServer
from dhcpless_sandbox.controllers.controller import Controller
from dhcpless_sandbox.controllers.custom_objects import CustomObjects, ignore_missing
from dhcpless_sandbox.controllers.reflector import WatchedResource, WatchEvent
from dhcpless_sandbox.standins.allocation import Allocation, AllocationFailed, allocate
from dhcpless_sandbox.standins.ipam_spec import IP, PoolEntry, PoolSpec, parse_ip

log = logging.getLogger(__name__)

GROUP, VERSION = keys.CAPI_IPAM_GROUP, "v1beta2"
SERVED = ("v1beta2", "v1beta1")
EXHAUSTED_RETRY = 1.0
"""Seconds before an exhausted pool is looked at again (the provider's error requeue)."""
POOL_KIND, POOL_PLURAL, POOL_VERSION = "InClusterIPPool", "inclusterippools", "v1alpha2"
PoolKey = tuple[str, str]
Obj = dict[str, Any]


def pool_spec(pool: Obj) -> PoolSpec:
    """`spec.addresses` (IPs, `first-last` ranges, CIDRs) as the allocator's entries."""
    spec = pool.get("spec") or {}
    entries = [_entry(text.strip()) for text in spec.get("addresses") or []]
    return PoolSpec(
        namePrefix=pool["metadata"]["name"], pools=tuple(entries),
        prefix=int(spec.get("prefix") or 0), gateway=spec.get("gateway"),
    )  # fmt: skip


def _entry(text: str) -> PoolEntry:
    if "/" in text:
        return PoolEntry(subnet=text)
    first, _, last = text.partition("-")
    return PoolEntry(start=first, end=last or first)


class CapiIPAMController(Controller[PoolKey]):
    """Watches InClusterIPPools, IPAddressClaims and IPAddresses; reconciles one pool at a time."""

    def __init__(self, api: client.ApiClient) -> None:
        self._objects = CustomObjects(api, GROUP, VERSION)
        self._pools = CustomObjects(api, GROUP, POOL_VERSION)
        self.allocated = 0
        watched = [
            WatchedResource(f"{GROUP}/{POOL_VERSION}", POOL_KIND, POOL_PLURAL),
            WatchedResource(f"{GROUP}/{VERSION}", "IPAddressClaim", "ipaddressclaims"),
            WatchedResource(f"{GROUP}/{VERSION}", "IPAddress", "ipaddresses"),
        ]
        super().__init__(api, "capi-ipam", watched)

    def _on_event(self, _: WatchEvent, obj: Obj) -> None:
        namespace = obj.get("metadata", {}).get("namespace", "")
        if obj.get("kind") == POOL_KIND:
            self._queue.add((namespace, obj["metadata"]["name"]))
        elif (ref := (obj.get("spec") or {}).get("poolRef") or {}).get("kind") == POOL_KIND:
            self._queue.add((namespace, ref.get("name", "")))

    def reconcile(self, key: PoolKey) -> float | None:
        namespace, name = key
        pool = self._pools.get(POOL_PLURAL, namespace, name)
        if pool is None:
            return None
        spec = pool_spec(pool)
        taken = self._taken(namespace, name)
        in_use = {ip for ip in map(parse_ip, taken.values()) if ip is not None}
        served = [
            self._serve(pool, spec, claim, in_use, taken)
            for claim in self._objects.list_items("ipaddressclaims", namespace)
            if _pending(claim, name)
        ]
        return None if all(served) else EXHAUSTED_RETRY

    def _taken(self, namespace: str, pool: str) -> dict[str, str]:
        """Claim name -> address, from the pool's IPAddresses."""
        found = {}
        for address in self._objects.list_items("ipaddresses", namespace):
            spec = address.get("spec") or {}
            if (spec.get("poolRef") or {}).get("name") == pool:
                found[(spec.get("claimRef") or {}).get("name", "")] = spec.get("address", "")
        return found

    def _serve(
        self, pool: Obj, spec: PoolSpec, claim: Obj, in_use: set[IP], taken: dict[str, str]
    ) -> bool:
        """Give the claim an address; False (and nothing written) when the pool has none."""
        meta = claim["metadata"]
        try:
            if meta["name"] not in taken:
                got = allocate(spec, meta["name"], None, in_use)
                self._create_address(pool, claim, got)
                in_use |= {ip for ip in [parse_ip(got.address)] if ip is not None}
        except AllocationFailed as failure:  # logged by the provider, nothing on the claim
            log.info("IPAddressClaim %s/%s: %s", meta["namespace"], meta["name"], failure)
            return False
        status = {"addressRef": {"name": meta["name"]}}
        patch = self._objects.patch_status
        ignore_missing(lambda: patch("ipaddressclaims", meta["namespace"], meta["name"], status))
        return True

    def _create_address(self, pool: Obj, claim: Obj, got: Allocation) -> None:
        meta = claim["metadata"]
        body = {
            "apiVersion": f"{GROUP}/{VERSION}",
            "kind": "IPAddress",
            "metadata": {
                "name": meta["name"], "namespace": meta["namespace"],
                "ownerReferences": [
                    _owner(f"{GROUP}/{VERSION}", "IPAddressClaim", meta),
                    _owner(f"{GROUP}/{POOL_VERSION}", POOL_KIND, pool["metadata"]),
                ],
            },
            "spec": _address_spec(pool, meta["name"], got),
        }  # fmt: skip
        try:
            self._objects.create("ipaddresses", meta["namespace"], body)
        except ApiException as error:
            if error.status != 409:
                raise
        self.allocated += 1


def _owner(api_version: str, kind: str, meta: Obj) -> Obj:
    return {"apiVersion": api_version, "kind": kind, "name": meta["name"], "uid": meta["uid"]}


def _address_spec(pool: Obj, claim: str, got: Allocation) -> Obj:
    spec: Obj = {
        "address": got.address,
        "prefix": got.prefix,
        "claimRef": {"name": claim},
        "poolRef": {"apiGroup": GROUP, "kind": POOL_KIND, "name": pool["metadata"]["name"]},
    }
    if got.gateway:
        spec["gateway"] = got.gateway
    return spec


def _pending(claim: Obj, pool: str) -> bool:
    """A claim of `pool`, not being deleted, without an address yet."""
    ref = (claim.get("spec") or {}).get("poolRef") or {}
    status = claim.get("status") or {}
    return (
        ref.get("kind") == POOL_KIND
        and ref.get("name") == pool
        and not claim["metadata"].get("deletionTimestamp")
        and not (status.get("addressRef") or {}).get("name")
    )


def load_crds(server: SandboxServer, versions: tuple[str, ...] = SERVED) -> None:
    """The sandbox-only CAPI IPAM CRDs (`dhcpless/crds/sandbox/`), for tests that build their
    own server (the world loads them itself). `versions`: the claim and address versions to
    serve (`("v1beta1",)`: an older Cluster API, before v1beta2; the first one is storage)."""
    for crd in crd_files():
        if crd.name.startswith(f"{GROUP}_"):
            for doc in yaml.safe_load_all(crd.read_text()):
                server.apply_crd(_serving(doc, versions))


def _serving(crd: Obj, versions: tuple[str, ...]) -> Obj:
    """`crd` with only `versions` of its claim/address kinds served (pools keep theirs)."""
    kept = [
        v for v in crd["spec"]["versions"] if v["name"] in versions or v["name"] == POOL_VERSION
    ]
    for index, version in enumerate(kept):
        version["storage"] = index == 0
    crd["spec"]["versions"] = kept
    return crd
