"""External IPAM: pools of a non-Metal3 kind, claimed through CAPI `IPAddressClaim`s.

As CAPM3's `ensureIPClaim`/`addressFromClaim` (metal3.md §c.5): a network whose `fromPoolRef`
names another kind (e.g. `InClusterIPPool.ipam.cluster.x-k8s.io`) gets an `IPAddressClaim`
with that `spec.poolRef`; the provider answers with `status.addressRef` naming a CAPI
`IPAddress` (address, prefix, gateway). CAPI addresses carry no DNS servers, and CAPM3 HEAD
renders none for a pool that is not a Metal3 IPPool (cluster-api-provider-metal3
`baremetal/metal3data_manager.go` `fetchDNSServersFromIPPool`: nil unless `isMetal3IPPoolRef`),
even when a Metal3 IPPool of the same name exists. Our claim is named
`<bmh>-<pool>` like our IPClaims (DESIGN §3), lives in the template's namespace, carries our
labels and an ownerReference to the host: deleting the host releases it (garbage collection);
nothing else deletes it. A claim the provider failed (Ready False) is reported, not retried.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from dhcpless import keys, render
from dhcpless.chain import identity
from dhcpless.chain.actions import CreateIPAddressClaim, RecordEvent
from dhcpless.errors import Gone, Transient
from dhcpless.kube.client import Kube
from dhcpless.kube.recorder import Reason
from dhcpless.kube.refs import HostRef
from dhcpless.models import BareMetalHost, IPAddressClaim

Pools = Iterable[render.PoolRef]


@dataclass(frozen=True)
class External:
    """One host's CAPI claims by pool name and, once all are fulfilled, their addresses."""

    claims: Mapping[str, IPAddressClaim] = field(default_factory=dict)
    addresses: Mapping[str, render.Address] = field(default_factory=dict)


def external(pools: Pools) -> tuple[render.PoolRef, ...]:
    """The pools that are not Metal3 IPPools (claimed with IPAddressClaims)."""
    return tuple(p for p in pools if not p.is_metal3)


def claim_actions(host: BareMetalHost, namespace: str, pools: Pools) -> list[CreateIPAddressClaim]:
    """Pure: one IPAddressClaim `<host>-<pool>` per external pool, in `namespace`."""
    ref = HostRef.of(host)
    return [
        CreateIPAddressClaim(namespace, f"{host.name}-{p.name}", p.name, p.kind, p.api_group, ref)
        for p in external(pools)
    ]


def ready(pools: Pools, found: External) -> bool:
    """Every external pool has a claim with an address (vacuously true without any)."""
    return all(p.name in found.claims and found.claims[p.name].address_name for p in pools)


def failures(host: BareMetalHost, pools: Pools, found: External) -> tuple[RecordEvent, ...]:
    """Pure: one Warning per failed claim, quoting the provider's reason and message."""
    ref, events = HostRef.of(host), list[RecordEvent]()
    for pool in external(pools):
        claim = found.claims.get(pool.name)
        if claim is not None and claim.failure:
            where = f"{claim.metadata.namespace}/{claim.metadata.name}"
            message = f"IPAddressClaim {where}: {claim.failure}"
            events.append(RecordEvent(ref, Reason.CLAIM_FAILED, message))
    return tuple(events)


def gather_claims(kube: Kube, host: BareMetalHost, namespace: str, pools: Pools) -> External:
    """Our claims of this host (one label-scoped LIST), only when the template has external
    pools: hosts on Metal3 pools alone cost nothing more."""
    if not external(pools):
        return External()
    selector = (
        f"{keys.HOST_LABEL}={host.name},{keys.HOST_NAMESPACE_LABEL}={host.namespace},"
        f"{keys.MANAGED_BY_LABEL}={keys.MANAGED_BY_VALUE}"
    )
    claims = kube.list_capi_claims(namespace, selector)
    ref = HostRef.of(host)
    mine = (
        c
        for c in claims
        if c.metadata.name == f"{host.name}-{c.spec.pool_ref.name}"
        and identity.standing(c.metadata, ref) is identity.Standing.OURS
    )
    return External({c.spec.pool_ref.name: c for c in mine})


def gather_addresses(kube: Kube, found: External, namespace: str) -> External:
    """The CAPI IPAddress of every claim as the renderer's Address, with no DNS servers
    (these pools are never Metal3 IPPools: see the module docstring)."""
    if not found.claims:
        return found
    addresses = {
        pool: _address(kube, namespace, claim.address_name)
        for pool, claim in sorted(found.claims.items())
    }
    return External(found.claims, addresses)


def _address(kube: Kube, namespace: str, name: str) -> render.Address:
    """A claim names its IPAddress once the provider made it: absence is a lag, retry."""
    try:
        ip = kube.get_capi_address(namespace, name)
    except Gone:
        raise Transient(f"IPAddress {namespace}/{name} not found yet") from None
    return render.Address(ip.spec.address, ip.spec.prefix, ip.spec.gateway or "", ())


def host_of(claim: IPAddressClaim) -> tuple[str, str] | None:
    """(namespace, name) of the host a claim of ours serves, from its labels."""
    labels = claim.metadata.labels
    if labels.get(keys.MANAGED_BY_LABEL) != keys.MANAGED_BY_VALUE or keys.HOST_LABEL not in labels:
        return None
    namespace = labels.get(keys.HOST_NAMESPACE_LABEL) or claim.metadata.namespace or "default"
    return namespace, labels[keys.HOST_LABEL]
