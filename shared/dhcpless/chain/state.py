"""Per-host state for each stage, gathered through the adapter, and the stage decisions.

Gathering reads only what the stage needs for one host (label-scoped, never fleet-wide), so
`decide_*` stay pure. `resync` reuses exactly these for every paused host.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from dhcpless.chain import decide, heal, lookup, netcheck
from dhcpless.chain.gate import Gate, gate, secret_name
from dhcpless.chain.lookup import Found, Problem, TemplateLookup
from dhcpless.kube.client import Kube
from dhcpless.models import BareMetalHost, IPAddress, IPClaim, IPPool, Secret


@dataclass(frozen=True)
class RegistrationState:
    """A paused host, what its template is, and (when it matters) its Secret."""

    host: BareMetalHost
    template: TemplateLookup | None = None
    secret: Secret | None = field(default=None, repr=False)


@dataclass(frozen=True)
class FulfilmentState:
    """A paused host, its template, its claims by pool, their addresses, its Secret if any."""

    host: BareMetalHost
    template: TemplateLookup
    claims: dict[str, IPClaim] = field(default_factory=dict)
    addresses: dict[str, IPAddress] = field(default_factory=dict)
    existing: Secret | None = field(default=None, repr=False)
    ippools: tuple[IPPool, ...] = ()
    """The template namespace's IPPools, once every claim is fulfilled (pool-overlap rule) or
    when a claim failed (only claims of existing pools are retried, `chain.heal`)."""


def gather_registration(kube: Kube, host: BareMetalHost) -> RegistrationState:
    state = gate(host)
    if state is Gate.NAMED:
        name = host.spec.preprovisioning_network_data_name
        return RegistrationState(host, secret=lookup.secret_or_none(kube, host.namespace, name))
    if state is not Gate.WAITING:
        return RegistrationState(host)
    template = lookup.template_for(kube, host)
    if isinstance(template, Found) and decide.pools_for(host, template) == ():
        mine = lookup.secret_or_none(kube, host.namespace, secret_name(host))
        return RegistrationState(host, template, mine)
    return RegistrationState(host, template)


def decide_registration(state: RegistrationState) -> decide.Actions:
    """Named hosts: release when their Secret is valid. Waiting hosts: claim (or render)."""
    host, template = state.host, state.template
    if gate(host) is Gate.NAMED:
        return decide.decide_release(host, state.secret)
    if template is None or gate(host) is not Gate.WAITING:
        return ()
    if isinstance(template, Problem):
        return (decide.event(host, template.reason, template.message),)
    pools = decide.pools_for(host, template)
    if isinstance(pools, Problem):
        return (decide.event(host, pools.reason, pools.message),)
    if not pools:
        return decide.decide_render(host, template, {}, {}, state.secret)
    return decide.decide_claims(host, template, pools)


def gather_fulfilment(kube: Kube, host: BareMetalHost) -> FulfilmentState | None:
    """None when there is nothing to look at (not waiting, or no claims to wait for)."""
    if gate(host) is not Gate.WAITING:
        return None
    template = lookup.template_for(kube, host)
    if not isinstance(template, Found):
        return FulfilmentState(host, template)
    claims = lookup.host_claims(kube, host, template.ref.namespace)
    pools = decide.pools_for(host, template)
    ready = not isinstance(pools, Problem) and all(
        p.name in claims and claims[p.name].status.address is not None for p in pools
    )
    if not ready:  # failed claims: their pools, so only claims of existing pools are retried
        failed = heal.failed(claims.values())
        ippools = tuple(kube.list_pools(template.ref.namespace)) if failed else ()
        return FulfilmentState(host, template, claims, ippools=ippools)
    existing = lookup.secret_or_none(kube, host.namespace, secret_name(host))
    ippools = netcheck.pools_to_check(kube, host, template) if existing is None else ()
    found = lookup.addresses(kube, claims)
    return FulfilmentState(host, template, claims, found, existing, ippools)


def decide_fulfilment(state: FulfilmentState, retry_failed: bool = False) -> decide.Actions:
    """`retry_failed`: delete failed claims to have them claimed again (`chain.heal`), instead
    of reporting them, when their pool exists (a claim of a missing pool cannot do better).
    resync passes True (a tick retries); a claim's own event must not: with
    the pool still exhausted, IPAM's next failure would bring that event back at once."""
    if isinstance(state.template, Problem):
        return (decide.event(state.host, state.template.reason, state.template.message),)
    pools = {p.metadata.name for p in state.ippools}
    failed = [c for c in heal.failed(state.claims.values()) if c.spec.pool.name in pools]
    retry = heal.decide_retry(state.host, failed)
    if retry_failed and retry:
        return retry
    return decide.decide_render(
        state.host, state.template, state.claims, state.addresses, state.existing, state.ippools
    )
