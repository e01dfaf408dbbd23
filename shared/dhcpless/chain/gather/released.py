"""Reads about a host we released: what CAPM3 borrows (`decide.lifecycle`), the claims its
record says it holds and its own Secret, which holds the record a re-claim trusts
(`decide.reclaim`), its re-made claims' answers (`decide.restored`) and, when it hangs in
inspection, the addresses the ramdisk was given (`decide.hang`)."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence

from dhcpless import keys
from dhcpless.chain.cause import Listed
from dhcpless.chain.gather.lookup import addresses, host_claims, mine, secret_or_none, selector
from dhcpless.chain.predicates import collision, ownership
from dhcpless.chain.predicates.on_host import borrower
from dhcpless.errors import Gone
from dhcpless.kube.api import capm3
from dhcpless.kube.api.client import Kube
from dhcpless.models import BareMetalHost, IPAddress, IPClaim, Secret
from dhcpless.models.capm3 import Metal3Data
from dhcpless.names import fits_label


def lending(kube: Kube, host: BareMetalHost) -> tuple[dict[str, IPClaim], tuple[Metal3Data, ...]]:
    """Our claims of this host (one label-scoped LIST) and the live Metal3Data of its
    Metal3Machine (one LIST), both in the Metal3Machine's namespace: the only one where CAPM3
    looks for `<bmh>-<pool>` (`baremetal/metal3data_manager.go` `ensureM3IPClaim`)."""
    ref = borrower(host)
    if ref is None:
        return {}, ()
    namespace = ref.namespace or host.namespace
    claims = host_claims(kube, host, namespace)
    if not claims:
        return claims, ()
    try:
        listed = capm3.list_metal3data(kube, namespace)
    except Gone:  # CAPM3 not installed (no Metal3Data kind): nothing borrows
        return claims, ()
    live = (d for d in listed if d.spec.claim.name == ref.name)
    return claims, tuple(d for d in live if not d.metadata.deletion_timestamp)


def capm3_named(
    kube: Kube, host: BareMetalHost, claims: Mapping[str, IPClaim], data: Sequence[Metal3Data]
) -> dict[str, IPClaim]:
    """Claims under the names CAPM3 looks up first, `<metal3data>-<pool>`
    (`baremetal/metal3data_manager.go` `ensureM3IPClaim`), that are not this host's: one GET
    each, only while a Metal3Data still waits for a lend (`decide.collision`)."""
    pending = [
        d
        for d in data
        if d.metadata.uid
        and any(
            d.metadata.uid not in {o.uid for o in c.metadata.owner_references}
            for c in claims.values()
        )
    ]
    if not pending:
        return {}
    ref = borrower(host)
    namespace = (ref.namespace if ref is not None else "") or host.namespace
    found: dict[str, IPClaim] = {}
    for name in collision.wanted_names(host.name, pending, claims):
        claim = kube.find_claim(namespace, name)
        if claim is not None:
            found[name] = claim
    return found


def claimed_addresses(kube: Kube, host: BareMetalHost) -> tuple[IPAddress, ...]:
    """The IPAddresses of our claims for the host (IPAM objects, not the Secret), by pool."""
    found = []
    for _, claim in sorted(host_claims(kube, host, host.namespace).items()):
        ref = claim.status.address
        if ref is not None and ref.name:
            with contextlib.suppress(Gone):
                found.append(kube.get_address(ref.namespace or host.namespace, ref.name))
    return tuple(found)


def held(kube: Kube, host: BareMetalHost, listed: Listed | None) -> tuple[IPClaim, ...] | None:
    """The claims in the namespace the host's record names (None: no record): those the
    caller `listed` there (resync: `ours_in`), else one LIST by the host's labels."""
    record = ownership.recorded(host)
    if record is None:
        return None
    if listed is not None and listed[0] == record[0]:
        return tuple(listed[1])
    if not fits_label(host.name):  # no label holds the name: nothing of ours carries it
        return ()
    return tuple(kube.list_claims(record[0], selector(host)))


def record_secret(kube: Kube, host: BareMetalHost) -> Secret | None:
    """The Secret the released host names (one GET): where our trusted record is
    (`ownership.trusted` checks it is ours)."""
    name = host.spec.preprovisioning_network_data_name
    return secret_or_none(kube, host.namespace, name) if name else None


def reclaimed(
    kube: Kube, host: BareMetalHost, listed: Listed | None
) -> tuple[tuple[IPClaim, IPAddress | None], ...]:
    """The host's answered claims (as its caller `listed` them) that asked IPAM for an address
    (`keys.REQUESTED_IP_ANNOTATION`: our re-claims), each with its IPAddress once fulfilled."""
    if listed is None or listed[0] != host.namespace:
        return ()
    asked = {
        pool: c
        for pool, c in mine(host, listed[1]).items()
        if c.metadata.annotations.get(keys.REQUESTED_IP_ANNOTATION)
        and (c.status.address is not None or c.status.error_message)
    }
    if not asked:
        return ()
    found = addresses(kube, asked)
    return tuple((c, found.get(pool)) for pool, c in sorted(asked.items()))


def ours_in(kube: Kube, namespace: str) -> list[IPClaim]:
    """Every claim we made in `namespace` (one LIST by our managed-by label): what resync
    hands each released host instead of one LIST per host."""
    return kube.list_claims(namespace, f"{keys.MANAGED_BY_LABEL}={keys.MANAGED_BY_VALUE}")
