"""Per-host state for each stage, gathered through the adapter, and the stage decisions.

Gathering reads only what the stage needs for one host (label-scoped, never fleet-wide), so
`decide_*` stay pure. `resync` reuses exactly these for every paused host.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from dhcpless import render
from dhcpless.chain import decide, derived, external, heal, lookup, netcheck
from dhcpless.chain.external import External
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
    outside: External = field(default_factory=External)
    """CAPI IPAddressClaims of external pools and, once all are fulfilled, their addresses."""


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
    if not derived.servable(host.name):  # a label selector the API refuses: `decide` says why
        return FulfilmentState(host, template)
    namespace = template.ref.namespace
    claims = lookup.host_claims(kube, host, namespace)
    pools = decide.pools_for(host, template)
    outside = external.gather_claims(kube, host, namespace, _listed(pools))
    if not _ready(pools, claims, outside):  # failed claims: their pools, so only
        failed = heal.failed(claims.values())  # claims of existing pools are retried
        ippools = tuple(kube.list_pools(namespace)) if failed else ()
        return FulfilmentState(host, template, claims, ippools=ippools, outside=outside)
    existing = lookup.secret_or_none(kube, host.namespace, secret_name(host))
    ippools = netcheck.pools_to_check(kube, host, template) if existing is None else ()
    found = lookup.addresses(kube, claims)
    outside = external.gather_addresses(kube, outside, namespace)
    return FulfilmentState(host, template, claims, found, existing, ippools, outside)


def _listed(pools: tuple[render.PoolRef, ...] | Problem) -> tuple[render.PoolRef, ...]:
    return () if isinstance(pools, Problem) else pools


def _ready(
    pools: tuple[render.PoolRef, ...] | Problem, claims: dict[str, IPClaim], outside: External
) -> bool:
    """Every Metal3 pool's IPClaim and every external pool's IPAddressClaim has its address
    (a template whose pools cannot be listed is never ready: `decide_render` reports it)."""
    if isinstance(pools, Problem):
        return False
    metal3 = [p.name for p in pools if p.is_metal3]
    done = all(n in claims and claims[n].status.address is not None for n in metal3)
    return done and external.ready(external.external(pools), outside)


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
        state.host, state.template, state.claims, state.addresses, state.existing, state.ippools,
        state.outside,
    )  # fmt: skip
