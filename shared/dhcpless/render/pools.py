"""Which pools a template references, with CAPM3's getReferencedPools rules.

One claim per distinct pool name. References without kind/group default to a Metal3
`IPPool` in `ipam.metal3.io`; any other kind/group is a CAPI IPAM pool. The same name
with two different kinds or groups is an error. `fromPoolAnnotation` names the pool in
an annotation of the BareMetalHost (the only related object before provisioning).

Deliberate differences from CAPM3:

* `metaData` pools are not collected: pre-provisioning renders networkData only.
* A `fromPoolAnnotation` route gateway inside ipv4DHCP / ipv6DHCP / ipv6SLAAC is
  collected (CAPM3 forgets it and then fails with `failed to fetch pool from cache`).
* With no host (as CAPM3 during release) annotation references are skipped.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from dhcpless.keys import IPAM_GROUP
from dhcpless.models.bmh import BareMetalHost
from dhcpless.models.netdata import (
    DhcpNetwork,
    FromAnnotation,
    NetworkData,
    Route,
    StaticNetwork,
)
from dhcpless.models.netdata import PoolRef as TemplatePoolRef
from dhcpless.render.errors import RenderError
from dhcpless.render.objects import annotation_value

METAL3_POOL_KIND = "IPPool"


@dataclass(frozen=True, order=True, slots=True)
class PoolRef:
    """A pool to claim from: name plus the resource it is (kind, API group)."""

    name: str
    kind: str = METAL3_POOL_KIND
    api_group: str = IPAM_GROUP

    @property
    def is_metal3(self) -> bool:
        """True for Metal3 IPAM pools (claimed with an IPClaim)."""
        return self.kind == METAL3_POOL_KIND and self.api_group == IPAM_GROUP


@dataclass(frozen=True, slots=True)
class PoolUse:
    """One place in the template that needs a pool, for error messages."""

    ref: PoolRef
    where: str


def _typed(ref: TemplatePoolRef) -> PoolRef:
    return PoolRef(ref.name, ref.kind or METAL3_POOL_KIND, ref.api_group or IPAM_GROUP)


def _annotated(ref: FromAnnotation, host: BareMetalHost | None, where: str) -> Iterator[PoolUse]:
    if host is None:
        return
    name = annotation_value(ref, host)
    if not name:
        raise RenderError(f"annotation {ref.annotation} not found or empty on {ref.object}")
    yield PoolUse(PoolRef(name), where)


def _route_uses(
    routes: tuple[Route, ...], host: BareMetalHost | None, where: str
) -> Iterator[PoolUse]:
    for index, route in enumerate(routes):
        here = f"{where}.routes[{index}]"
        gateway = route.gateway
        if gateway.from_pool_annotation is not None:
            yield from _annotated(gateway.from_pool_annotation, host, here + ".gateway")
        if gateway.from_pool_ref is not None and gateway.from_pool_ref.name:
            yield PoolUse(_typed(gateway.from_pool_ref), here + ".gateway")
        elif gateway.from_ip_pool:
            yield PoolUse(PoolRef(gateway.from_ip_pool), here + ".gateway")
        if route.services.dns_from_ip_pool:
            yield PoolUse(PoolRef(route.services.dns_from_ip_pool), here + ".services")


def _static_uses(
    kind: str, nets: tuple[StaticNetwork, ...], host: BareMetalHost | None
) -> Iterator[PoolUse]:
    for index, net in enumerate(nets):
        where = f'networks.{kind}[{index}] "{net.id}"'
        if net.from_pool_annotation is not None:
            yield from _annotated(net.from_pool_annotation, host, where)
        if net.from_pool_ref is not None and net.from_pool_ref.name:
            yield PoolUse(_typed(net.from_pool_ref), where)
        elif net.ip_address_from_ip_pool:
            yield PoolUse(PoolRef(net.ip_address_from_ip_pool), where)
        yield from _route_uses(net.routes, host, where)


def _dhcp_uses(
    kind: str, nets: tuple[DhcpNetwork, ...], host: BareMetalHost | None
) -> Iterator[PoolUse]:
    for index, net in enumerate(nets):
        yield from _route_uses(net.routes, host, f'networks.{kind}[{index}] "{net.id}"')


def pool_uses(network_data: NetworkData, host: BareMetalHost | None) -> tuple[PoolUse, ...]:
    """Every pool reference in template order (duplicates kept; see referenced_pools)."""
    nets = network_data.networks
    uses = [
        *_static_uses("ipv4", nets.ipv4, host),
        *_static_uses("ipv6", nets.ipv6, host),
        *_dhcp_uses("ipv4DHCP", nets.ipv4_dhcp, host),
        *_dhcp_uses("ipv6DHCP", nets.ipv6_dhcp, host),
        *_dhcp_uses("ipv6SLAAC", nets.ipv6_slaac, host),
    ]
    if network_data.services.dns_from_ip_pool:
        uses.append(PoolUse(PoolRef(network_data.services.dns_from_ip_pool), "services"))
    return tuple(uses)


def referenced_pools(network_data: NetworkData, host: BareMetalHost | None) -> tuple[PoolRef, ...]:
    """The distinct pools to claim, sorted by name; conflicting references are an error."""
    seen: dict[str, PoolRef] = {}
    for use in pool_uses(network_data, host):
        known = seen.setdefault(use.ref.name, use.ref)
        if known != use.ref:
            raise RenderError("multiple references with the same name but different resource types")
    return tuple(sorted(seen.values()))
