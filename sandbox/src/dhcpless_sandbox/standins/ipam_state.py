"""What IPAM decides from the objects it read, without touching the API.

Exists so the reconcile loop in `ipam` is only read → decide → write: rebuild a pool's
allocations and in-use set from its IPAddresses and `preAllocations`, pick the claims that
still need work, shape the IPAddress object for a new allocation, and compute the
`status.indexes` patch (old entries nulled so a merge patch removes them).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from dhcpless import keys
from dhcpless_sandbox.standins.allocation import Allocation, address_name
from dhcpless_sandbox.standins.ipam_spec import IP, PoolSpec, parse_ip

API_VERSION = f"{keys.IPAM_GROUP}/{keys.IPAM_VERSION}"


@dataclass
class PoolState:
    """One reconcile's view of a pool: allocations by claim name, and addresses in use."""

    namespace: str
    name: str
    spec: PoolSpec
    uid: str
    allocations: dict[str, str]
    in_use: set[IP]
    cursors: dict[int, IP] = field(default_factory=dict)
    """Where a sequential scan may start (`allocation.allocate`); cleared when one is freed."""


def pool_state(pool: dict[str, Any], addresses: list[dict[str, Any]]) -> PoolState:
    """The pool's allocations (from its IPAddresses) and what is in use (plus pre-allocations,
    unless the pool is being deleted)."""
    meta = pool["metadata"]
    spec = PoolSpec.model_validate(pool.get("spec", {}))
    state = PoolState(meta["namespace"], meta["name"], spec, meta.get("uid", ""), {}, set())
    for address in addresses:
        address_spec = address.get("spec", {})
        if _ref_name(address_spec, "pool") == state.name:
            claim = (address_spec.get("claim") or {}).get("name", "")
            state.allocations[claim] = address_spec.get("address", "")
    deleting = bool(meta.get("deletionTimestamp"))
    values = list(state.allocations.values())
    values += [] if deleting else list(spec.pre_allocations.values())
    state.in_use = {ip for ip in map(parse_ip, values) if ip is not None}
    return state


def pending_claims(pool: str, claims: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Claims of `pool` being deleted, or with neither an address nor an error yet."""
    pending = []
    for claim in claims:
        status, deleting = claim.get("status") or {}, claim["metadata"].get("deletionTimestamp")
        if _ref_name(claim.get("spec", {}), "pool") != pool:
            continue
        if deleting or not (status.get("address") or status.get("errorMessage")):
            pending.append(claim)
    return pending


def _ref_name(spec: dict[str, Any], field: str) -> Any:
    return (spec.get(field) or {}).get("name")


def address_object(state: PoolState, claim_meta: dict[str, Any], got: Allocation) -> dict[str, Any]:
    """The IPAddress for a new allocation: owned by pool and claim, IPAM's finalizer on it."""
    return {
        "apiVersion": API_VERSION,
        "kind": "IPAddress",
        "metadata": {
            "name": address_name(state.spec.name_prefix, got.address),
            "namespace": state.namespace,
            "finalizers": [keys.IPAM_ADDRESS_FINALIZER],
            "labels": claim_meta.get("labels") or {},
            "ownerReferences": [
                _owner("IPPool", state.name, state.uid),
                _owner("IPClaim", claim_meta["name"], claim_meta.get("uid", "")),
            ],
        },
        "spec": _address_spec(state, claim_meta["name"], got),
    }


def _owner(kind: str, name: str, uid: str) -> dict[str, str]:
    return {"apiVersion": API_VERSION, "kind": kind, "name": name, "uid": uid}


def _address_spec(state: PoolState, claim: str, got: Allocation) -> dict[str, Any]:
    spec: dict[str, Any] = {
        "address": got.address,
        "prefix": got.prefix,
        "pool": {"name": state.name, "namespace": state.namespace},
        "claim": {"name": claim, "namespace": state.namespace},
    }
    if got.gateway is not None:
        spec["gateway"] = got.gateway
    if got.dns_servers:
        spec["dnsServers"] = list(got.dns_servers)
    return spec


def indexes_status(
    pool: dict[str, Any], allocations: dict[str, str], now: datetime
) -> dict[str, Any] | None:
    """The pool status patch mirroring `allocations` into `indexes`; None when already so."""
    current = (pool.get("status") or {}).get("indexes") or {}
    if current == allocations:
        return None
    indexes: dict[str, str | None] = {claim: None for claim in current}
    indexes.update(allocations)
    return {"indexes": indexes, "lastUpdated": now.strftime("%Y-%m-%dT%H:%M:%SZ")}
