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

from dhcpless.chain.actions import CreateIPAddressClaim, RecordEvent
from dhcpless.chain.facts import External
from dhcpless.chain.predicates.answers import Pools, external
from dhcpless.models import BareMetalHost
from dhcpless.reasons import Reason
from dhcpless.refs import HostRef


def claim_actions(host: BareMetalHost, namespace: str, pools: Pools) -> list[CreateIPAddressClaim]:
    """Pure: one IPAddressClaim `<host>-<pool>` per external pool given, in `namespace`."""
    ref = HostRef.of(host)
    return [
        CreateIPAddressClaim(namespace, f"{host.name}-{p.name}", p.name, p.kind, p.api_group, ref)
        for p in external(pools)
    ]


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
