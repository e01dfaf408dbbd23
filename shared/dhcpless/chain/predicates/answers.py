"""Pure predicates on what IPAM or an external provider answered a claim: failed (IPAM never
retries one, `decide.heal`), not answered yet (`decide.stalls`), and whether every external
pool's claim has its address (`decide.external`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime

from dhcpless import render
from dhcpless.chain.facts import External, Unanswered
from dhcpless.models import IPClaim

Pools = Iterable[render.PoolRef]


def failed(claims: Iterable[IPClaim], pool: str | None = None) -> list[IPClaim]:
    """Claims IPAM failed and nobody is deleting yet, optionally of one pool, by name."""
    found = [
        c
        for c in claims
        if c.status.error_message
        and not c.metadata.deletion_timestamp
        and (pool is None or c.spec.pool.name == pool)
    ]
    return sorted(found, key=lambda c: c.metadata.name)


def oldest_first(claims: Iterable[IPClaim]) -> list[IPClaim]:
    """Failed claims in the order they were made (then by name): the longest waiting first."""
    return sorted(claims, key=lambda c: (c.metadata.creation_timestamp or "", c.metadata.name))


def pending(claims: Mapping[str, IPClaim]) -> list[IPClaim]:
    """Pure: claims with neither an address nor an error (IPAM has not answered)."""
    return [
        c
        for _, c in sorted(claims.items())
        if c.status.address is None and not c.status.error_message
    ]


FRESH_SECONDS = 60.0
"""An external claim younger than this may just be waiting for its provider: not reported."""


def external_pending(outside: External, now: datetime) -> tuple[Unanswered, ...]:
    """Pure: our CAPI claims older than `FRESH_SECONDS` with neither an address nor a failure."""
    return tuple(
        Unanswered(c.metadata.name, c.metadata.namespace or "default", pool, external=True)
        for pool, c in sorted(outside.claims.items())
        if not c.address_name
        and not c.failure
        and age(c.metadata.creation_timestamp, now) >= FRESH_SECONDS
    )


def age(created: str | None, now: datetime) -> float:
    """Seconds since an RFC 3339 timestamp (unreadable or absent: old enough)."""
    try:
        return (
            now - datetime.fromisoformat((created or "").replace("Z", "+00:00"))
        ).total_seconds()
    except (ValueError, TypeError):  # not RFC 3339, or without a zone
        return float("inf")


def external(pools: Pools) -> tuple[render.PoolRef, ...]:
    """The pools that are not Metal3 IPPools (claimed with IPAddressClaims)."""
    return tuple(p for p in pools if not p.is_metal3)


def ready(pools: Pools, found: External) -> bool:
    """Every external pool has a claim with an address (vacuously true without any)."""
    return all(
        p.name in found.claims and found.claims[p.name].address_name for p in external(pools)
    )
