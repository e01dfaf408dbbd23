"""Reads about a host we released: what CAPM3 borrows (`decide.lifecycle`) and, when it hangs
in inspection, the addresses the ramdisk was given (`decide.hang`)."""

from __future__ import annotations

import contextlib

from dhcpless.chain.decide.lifecycle import borrower
from dhcpless.chain.gather.lookup import host_claims
from dhcpless.errors import Gone
from dhcpless.kube import capm3
from dhcpless.kube.client import Kube
from dhcpless.models import BareMetalHost, IPAddress, IPClaim
from dhcpless.models.capm3 import Metal3Data


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


def claimed_addresses(kube: Kube, host: BareMetalHost) -> tuple[IPAddress, ...]:
    """The IPAddresses of our claims for the host (IPAM objects, not the Secret), by pool."""
    found = []
    for _, claim in sorted(host_claims(kube, host, host.namespace).items()):
        ref = claim.status.address
        if ref is not None and ref.name:
            with contextlib.suppress(Gone):
                found.append(kube.get_address(ref.namespace or host.namespace, ref.name))
    return tuple(found)
