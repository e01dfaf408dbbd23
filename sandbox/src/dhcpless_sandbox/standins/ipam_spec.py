"""The parts of an IPPool's spec that IPAM's allocation reads, parsed once at the edge.

Exists so the pure allocation code (`ip_ranges`, `allocation`) and the reconcile loop (`ipam`)
share one typed view of `IPPool.spec` instead of each digging in raw dicts: the pool-wide
prefix/gateway/DNS, the `pools[]` entries that may override them, and `preAllocations`.
"""

from __future__ import annotations

import ipaddress
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

IP = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network


class AllocationStrategy(StrEnum):
    """`spec.allocationStrategy` (ip-address-manager `api/v1alpha1/ippool_types.go`)."""

    SEQUENTIAL = "sequential"
    RANDOM = "random"


class PoolEntry(BaseModel):
    """One `spec.pools[]` entry; its prefix/gateway/DNS override the pool's for its addresses."""

    model_config = ConfigDict(frozen=True, populate_by_name=True)

    start: str | None = None
    end: str | None = None
    subnet: str | None = None
    prefix: int = 0
    gateway: str | None = None
    dns_servers: tuple[str, ...] = Field(default=(), alias="dnsServers")


class PoolSpec(BaseModel):
    """The parts of `IPPool.spec` allocation reads."""

    model_config = ConfigDict(frozen=True, populate_by_name=True)

    name_prefix: str = Field(alias="namePrefix", min_length=1)
    pools: tuple[PoolEntry, ...] = ()
    prefix: int = 0
    gateway: str | None = None
    dns_servers: tuple[str, ...] = Field(default=(), alias="dnsServers")
    pre_allocations: dict[str, str] = Field(default_factory=dict, alias="preAllocations")
    allocation_strategy: AllocationStrategy = Field(
        default=AllocationStrategy.SEQUENTIAL, alias="allocationStrategy"
    )


def parse_ip(value: str | None) -> IP | None:
    """An address, or None when empty or not an address (IPAM skips those silently)."""
    try:
        return ipaddress.ip_address(value) if value else None
    except ValueError:
        return None
