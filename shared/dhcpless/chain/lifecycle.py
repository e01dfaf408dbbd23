"""What happens to our claims once pre-provisioning is over (README "IP lifecycle").

A host we released (it carries `keys.RELEASED_AT_ANNOTATION`) that reaches `available` no longer
boots our ramdisk for now. Per claim of ours, by the pool it draws from:

* **Common pool** (`spec.clusterName` set: the pool the provisioning Metal3DataTemplate uses):
  delete the claim, because CAPM3 looks up `<bmh>-<pool>` and waits forever on a claim it does
  not own (metal3.md §c.2, §h.3). With `record_preallocation`, first merge the address into the
  pool's `preAllocations[<bmh>-<pool>]` (guarded by resourceVersion), so CAPM3's claim of that
  name gets the same address (§c.6); a user's existing pre-allocation is never overwritten.
* **Decoupled pool** (no `clusterName`): keep the claim, so the address stays reserved while
  the ramdisk may boot again with it (inspection, cleaning, deployment); the host's deletion
  releases it (ownerReference -> garbage collection; we put no finalizer on claims, §d.5).
  `release_decoupled` opts into releasing it at `available` too.

The decision is taken from the event's object first: hosts that are not ours cost no read.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field

from dhcpless import keys
from dhcpless.chain import lookup
from dhcpless.chain.actions import Action, DeleteIPClaim, RecordEvent, RecordPreAllocation
from dhcpless.chain.gate import Gate, gate
from dhcpless.errors import Gone
from dhcpless.keys import ProvisioningState
from dhcpless.kube.client import Kube
from dhcpless.kube.recorder import Reason
from dhcpless.kube.refs import HostRef
from dhcpless.models import BareMetalHost, IPAddress, IPClaim, IPPool

TRUE = frozenset({"1", "true", "yes", "on"})


@dataclass(frozen=True, slots=True)
class LifecycleSettings:
    """The two opt-ins (module docstring); read once, in `create_app`."""

    record_preallocation: bool = False
    release_decoupled: bool = False

    @classmethod
    def from_environment(cls, env: Mapping[str, str] = os.environ) -> LifecycleSettings:
        def flag(name: str) -> bool:
            return env.get(name, "").strip().lower() in TRUE

        return cls(flag(keys.RECORD_PREALLOCATION_ENV), flag(keys.RELEASE_DECOUPLED_ENV))


@dataclass(frozen=True)
class LifecycleState:
    """Our claims of one available host, their pools, and (to record) their addresses."""

    host: BareMetalHost
    claims: dict[str, IPClaim] = field(default_factory=dict)
    pools: dict[str, IPPool] = field(default_factory=dict)
    addresses: dict[str, IPAddress] = field(default_factory=dict)


def release_decoupled(env: Mapping[str, str] = os.environ) -> bool:
    """The opt-in alone, for functions that write the Secret (`web.Settings`)."""
    return LifecycleSettings.from_environment(env).release_decoupled


def done(host: BareMetalHost) -> bool:
    """Pure, on the event's object: released with nothing left for us (`keys.DONE_LABEL`),
    and not paused for us again (a host paused anew is registered anew)."""
    return host.labels.get(keys.DONE_LABEL) == keys.DONE_VALUE and not gate(host).ours


def pre_provisioning_over(host: BareMetalHost) -> bool:
    """Pure, on the event's object: released by us, not paused again, and `available`."""
    return (
        gate(host) is Gate.NOT_PAUSED
        and keys.RELEASED_AT_ANNOTATION in host.annotations
        and host.status.provisioning.state == ProvisioningState.AVAILABLE
        and not host.metadata.deletion_timestamp
    )


def gather(kube: Kube, host: BareMetalHost, settings: LifecycleSettings) -> LifecycleState:
    """Our claims (one LIST in the template's namespace), their pools, and addresses to record."""
    template = lookup.template_for(kube, host)
    namespace = template.ref.namespace if isinstance(template, lookup.Found) else host.namespace
    claims = {
        p: c for p, c in lookup.host_claims(kube, host, namespace).items()
        if not c.metadata.deletion_timestamp
    }  # fmt: skip
    pools = {p: pool for p in sorted(claims) if (pool := _pool(kube, namespace, p)) is not None}
    wanted = {p: c for p, c in claims.items() if _needs_record(settings, pools.get(p), c)}
    return LifecycleState(host, claims, pools, lookup.addresses(kube, wanted) if wanted else {})


def _pool(kube: Kube, namespace: str, name: str) -> IPPool | None:
    try:
        return kube.get_pool(namespace, name)
    except Gone:
        return None


def is_common(pool: IPPool | None) -> bool:
    """Shared with provisioning (`clusterName`); a vanished pool reserves nothing: release."""
    return pool is None or bool(pool.spec.cluster_name)


def _needs_record(settings: LifecycleSettings, pool: IPPool | None, claim: IPClaim) -> bool:
    return (
        settings.record_preallocation
        and pool is not None
        and is_common(pool)
        and claim.metadata.name not in pool.spec.pre_allocations
        and claim.status.address is not None
    )


def decide(state: LifecycleState, settings: LifecycleSettings) -> tuple[Action, ...]:
    """Pure: per claim (pool order), record then delete, or keep (see the module docstring)."""
    actions: list[Action] = []
    for pool_name, claim in sorted(state.claims.items()):
        pool = state.pools.get(pool_name)
        if is_common(pool) or settings.release_decoupled:
            actions += _release(state, claim, pool)
    return tuple(actions)


def _release(state: LifecycleState, claim: IPClaim, pool: IPPool | None) -> list[Action]:
    ref, name = HostRef.of(state.host), claim.metadata.name
    namespace = claim.metadata.namespace or state.host.namespace
    address = state.addresses.get(claim.spec.pool.name)
    record: list[Action] = []
    if address is not None and pool is not None:
        version = pool.metadata.resource_version or ""
        record = [
            RecordPreAllocation(namespace, pool.metadata.name, name, address.spec.address, version),
            RecordEvent(ref, Reason.PREALLOCATION_RECORDED, _recorded(pool, name, address)),
        ]
    why = "shared with provisioning" if is_common(pool) else "decoupled, release opted in"
    message = f"IPClaim {namespace}/{name} deleted: host available, pool {why}"
    return [
        *record,
        DeleteIPClaim(namespace, name, ref),
        RecordEvent(ref, Reason.CLAIM_RELEASED, message),
    ]


def _recorded(pool: IPPool, claim: str, address: IPAddress) -> str:
    return f"IPPool {pool.metadata.name}: preAllocations[{claim}] = {address.spec.address}"
