"""Reads about a waiting host's claims beyond its own IPClaims: CAPI claims and addresses of
external pools (`decide.external`), why IPAM leaves a claim unanswered (`decide.stalls`), and
the failed claims of one pool (`decide.heal`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime

from dhcpless import keys, render
from dhcpless.chain import identity
from dhcpless.chain.facts import External, Unanswered
from dhcpless.chain.gather.lookup import selector
from dhcpless.chain.predicates import answers, ownership
from dhcpless.chain.predicates.answers import external
from dhcpless.errors import Gone, Transient
from dhcpless.kube.api import capi
from dhcpless.kube.api.client import Kube
from dhcpless.models import BareMetalHost, IPClaim
from dhcpless.refs import HostRef

OURS = f"{keys.MANAGED_BY_LABEL}={keys.MANAGED_BY_VALUE}"


def capi_claims(
    kube: Kube, host: BareMetalHost, namespace: str, pools: Iterable[render.PoolRef]
) -> External:
    """Our CAPI claims of this host (one label-scoped LIST), only when the template has
    external pools: hosts on Metal3 pools alone cost nothing more."""
    if not external(pools):
        return External()
    ref = HostRef.of(host)
    mine = (
        c
        for c in kube.list_capi_claims(namespace, selector(host))
        if c.metadata.name == f"{host.name}-{c.spec.pool_ref.name}"
        and identity.standing(c.metadata, ref) is identity.Standing.OURS
    )
    return External({c.spec.pool_ref.name: c for c in mine})


def capi_addresses(kube: Kube, found: External, namespace: str) -> External:
    """The CAPI IPAddress of every claim as the renderer's Address, with no DNS servers
    (CAPM3 HEAD renders none for a pool that is not a Metal3 IPPool: cluster-api-provider-metal3
    `baremetal/metal3data_manager.go` `fetchDNSServersFromIPPool`)."""
    if not found.claims:
        return found
    addresses = {
        pool: _capi_address(kube, namespace, claim.address_name)
        for pool, claim in sorted(found.claims.items())
    }
    return External(found.claims, addresses)


def _capi_address(kube: Kube, namespace: str, name: str) -> render.Address:
    """A claim names its IPAddress once the provider made it: absence is a lag, retry."""
    try:
        ip = kube.get_capi_address(namespace, name)
    except Gone:
        raise Transient(f"IPAddress {namespace}/{name} not found yet") from None
    return render.Address(ip.spec.address, ip.spec.prefix, ip.spec.gateway or "", ())


def unanswered(
    kube: Kube, claims: Mapping[str, IPClaim], outside: External, now: datetime
) -> tuple[Unanswered, ...]:
    """For each unanswered claim: GET its pool, and the pool's Cluster when it names one
    (ip-address-manager `controllers/ippool_controller.go` Reconcile returns without requeue
    while the Cluster is missing); then our CAPI claims nobody answered."""
    found: list[Unanswered] = []
    for claim in answers.pending(claims):
        namespace, pool = claim.metadata.namespace or "default", claim.spec.pool.name
        try:
            cluster = kube.get_pool(namespace, pool).spec.cluster_name
        except Gone:
            found.append(Unanswered(claim.metadata.name, namespace, pool))
            continue
        if cluster and not capi.cluster_exists(kube, namespace, cluster):
            found.append(Unanswered(claim.metadata.name, namespace, pool, cluster))
        elif (
            cluster and answers.age(claim.metadata.creation_timestamp, now) >= answers.FRESH_SECONDS
        ):
            notes = bool(claim.metadata.annotations)
            found.append(Unanswered(claim.metadata.name, namespace, pool, cluster, True, notes))
    return (*found, *answers.external_pending(outside, now))


def failed_in_pool(kube: Kube, namespace: str, pool: str) -> list[tuple[str, str]]:
    """The hosts with a failed claim of ours in one pool (one label-scoped LIST, paged: only
    the failed claims are kept, never every claim of the fleet at once), the one waiting
    longest first (`answers.oldest_first`)."""
    failed = [c for page in kube.claim_pages(namespace, OURS) for c in answers.failed(page, pool)]
    owners = (ownership.host_of(c) for c in answers.oldest_first(failed))
    return list(dict.fromkeys(o for o in owners if o is not None))
