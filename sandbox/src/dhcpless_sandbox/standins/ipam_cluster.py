"""A pool with `spec.clusterName`, as ip-address-manager reconciles it.

`controllers/ippool_controller.go` `Reconcile`: the pool is labelled with its Cluster's name
and the provider (`cluster.x-k8s.io/cluster-name`, `cluster.x-k8s.io/provider: ipam-metal3`);
the Cluster is fetched, and when it is missing (and the pool is not being deleted) nothing is
done and nothing requeued. Once it exists the pool gets an owner reference to it (not a
controller one, `IPPoolManager.SetClusterOwnerRef`: deleting the Cluster collects the pool),
and while the Cluster or the pool is paused (`IsPaused`: `spec.paused` on the Cluster, or the
annotation `cluster.x-k8s.io/paused` on the pool) the pool is not reconciled at all: requeued
after 30 s.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from dhcpless_sandbox.controllers.custom_objects import CustomObjects, ignore_missing

log = logging.getLogger(__name__)
Obj = dict[str, Any]
CLUSTER_NAME_LABEL = "cluster.x-k8s.io/cluster-name"
PROVIDER_LABEL = "cluster.x-k8s.io/provider"
PROVIDER = "ipam-metal3"
PAUSED_ANNOTATION = "cluster.x-k8s.io/paused"
PAUSED_REQUEUE = 30.0
"""`requeueAfter` of the IPPool controller."""


@dataclass(frozen=True)
class Held:
    """The pool is not to be reconciled now; `requeue`: when to look again (None: on an event)."""

    requeue: float | None


def hold(
    pools: CustomObjects, clusters: Sequence[CustomObjects], pool: Obj
) -> tuple[Held | None, Obj]:
    """(None when the pool may be reconciled, else why not; the pool as it is now): labelled
    and owned as upstream does it."""
    name = (pool.get("spec") or {}).get("clusterName")
    if not name:
        return None, pool
    meta = pool["metadata"]
    found = _cluster(clusters, meta["namespace"], name)
    if _stamp(pools, pool, name, found):
        pool = pools.get("ippools", meta["namespace"], meta["name"]) or pool
        meta = pool["metadata"]
    return _held(pool, name, found), pool


def _held(pool: Obj, name: str, found: Obj | None) -> Held | None:
    meta = pool["metadata"]
    if found is None:
        if meta.get("deletionTimestamp"):
            return None
        log.info("IPPool %s/%s: Cluster %s not found; nothing allocated", meta["namespace"],
                 meta["name"], name)  # fmt: skip
        return Held(None)
    paused = (found.get("spec") or {}).get("paused") is True
    if paused or PAUSED_ANNOTATION in (meta.get("annotations") or {}):
        log.info("IPPool %s/%s: reconciliation is paused", meta["namespace"], meta["name"])
        return Held(PAUSED_REQUEUE)
    return None


def _cluster(clusters: Sequence[CustomObjects], namespace: str, name: str) -> Obj | None:
    """CAPI serves Clusters at v1beta2, older installations at v1beta1."""
    return next((c for c in (o.get("clusters", namespace, name) for o in clusters) if c), None)


def _stamp(pools: CustomObjects, pool: Obj, cluster: str, found: Obj | None) -> bool:
    """The labels, and the Cluster's owner reference once it exists: patched (True) when
    missing."""
    meta = pool["metadata"]
    labels = {CLUSTER_NAME_LABEL: cluster, PROVIDER_LABEL: PROVIDER}
    patch: Obj = {}
    if any((meta.get("labels") or {}).get(k) != v for k, v in labels.items()):
        patch["labels"] = labels
    owners = list(meta.get("ownerReferences") or [])
    if found is not None and not any(o.get("uid") == found["metadata"]["uid"] for o in owners):
        ref = {"apiVersion": found["apiVersion"], "kind": "Cluster",
               "name": found["metadata"]["name"], "uid": found["metadata"]["uid"]}  # fmt: skip
        patch["ownerReferences"] = [*owners, ref]
    if patch:
        ignore_missing(lambda: pools.patch("ippools", meta["namespace"], meta["name"],
                                           {"metadata": patch}))  # fmt: skip
    return bool(patch)
