"""A claim of ours deleted while its host lives is claimed again (issue 12, finding 8).

After release the host keeps using its address (fast-track ramdisk, deploy and cleaning boots,
`decide.lifecycle`), so nothing of ours deletes its claim; someone else may. IPAM then frees the
address (ip-address-manager `ipam/ippool_manager.go`: a deleted claim's address is released)
and may hand it to another claim. We claim again at once under the same name, so the host
holds an address again, and say so with a Warning: IPAM may have given a different address,
which the host's network data does not have.
"""

from __future__ import annotations

from dhcpless import keys
from dhcpless.chain import identity
from dhcpless.chain.actions import Action, CreateIPClaim, RecordEvent
from dhcpless.chain.gate import gate
from dhcpless.models import BareMetalHost, IPClaim
from dhcpless.reasons import Reason
from dhcpless.refs import HostRef


def released(host: BareMetalHost) -> bool:
    """Pure: released by us, not paused for us again, not being deleted."""
    return (
        not gate(host).ours
        and keys.RELEASED_AT_ANNOTATION in host.annotations
        and not host.metadata.deletion_timestamp
    )


def decide(host: BareMetalHost, gone: IPClaim) -> tuple[Action, ...]:
    """Pure: the deleted claim, if it was this host's own `<bmh>-<pool>`, is made again."""
    ref = HostRef.of(host)
    pool, namespace = gone.spec.pool.name, gone.metadata.namespace or host.namespace
    if not released(host) or gone.metadata.name != f"{host.name}-{pool}":
        return ()
    if not identity.made_for(gone.metadata, ref):
        return ()
    message = (
        f"IPClaim {namespace}/{gone.metadata.name} was deleted while the host uses its address; "
        "claimed again (IPAM may give another address than the host's network data has)"
    )
    return (
        CreateIPClaim(namespace, gone.metadata.name, pool, ref),
        RecordEvent(ref, Reason.CLAIM_DELETED, message),
    )
