"""Gather: the facts one host's decision needs, each read once per invocation (`HostFacts`).

What is read follows the host's gate (DESIGN §3): a host naming its Secret needs that Secret;
a waiting host its template, pools, claims and, once every claim has its address, the
addresses and the IPPools (pool-overlap rule); a host we released what CAPM3 borrows and, on
a tick, the claims its record says it holds. The
Secret we write is not read first: creating it tells whether one is there (`act` then reads
it into `HostFacts.taken`, and the pipeline decides again); nor are a just-added host's claims
(`fresh`), for the same reason. Reads only; nothing is written.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from dhcpless.chain.cause import Cause, Listed, again, seeds
from dhcpless.chain.facts import Found, HostFacts, Occasion, Problem, Taken, taken_key
from dhcpless.chain.gate import Gate, gate, secret_name
from dhcpless.chain.gather import ipam, released
from dhcpless.chain.gather.lookup import addresses, host_claims, mine, secret_or_none, template_for
from dhcpless.chain.predicates import answers, on_host, ownership
from dhcpless.chain.predicates.answers import ready
from dhcpless.chain.predicates.derived import pools_for
from dhcpless.keys import DEFAULT_PROFILE, RamdiskProfile
from dhcpless.kube.api.client import Kube
from dhcpless.models import BareMetalHost, IPClaim, Secret


def gather(
    kube: Kube,
    host: BareMetalHost,
    cause: Cause,
    *,
    taken: Mapping[str, Taken] | None = None,
    profile: RamdiskProfile = DEFAULT_PROFILE,
    later: bool = False,
) -> HostFacts:
    """The facts for `host` (read from the API by the pipeline: events are hints), seeded from
    `cause` (`cause.seeds`; `later`: a later round's, `cause.again`). A known Secret (the
    Secret's own event, secret-readiness) of a waiting host: the render facts are not read, so
    it cannot be verified and releases nothing (`decide.verify`). Listed claims (the cheap exit
    of ipclaim-fulfilment, a resync page): not listed again. `fresh` (the host's ADD event): no
    claim of ours is expected, so none is listed; creating them tells whether one is there
    (like the Secret: `act.Found`, and the pipeline decides again with them listed)."""
    seeded = again(seeds(cause)) if later else seeds(cause)
    render, listed, fresh = not seeded.known, seeded.listed, seeded.fresh
    known = {taken_key("Secret", s.metadata.name): s for s in seeded.known}
    base = HostFacts(
        host, seeded.occasion, seeded.now, taken={**known, **(taken or {})}, gone=seeded.gone,
        hang_seconds=seeded.hang_seconds, ramdisk_profile=profile,
    )  # fmt: skip
    state = gate(host)
    if state is Gate.NAMED:
        name = host.spec.preprovisioning_network_data_name or ""
        had = base.taken.get(taken_key("Secret", name))
        if isinstance(had, Secret) or on_host.bad_name(name):  # no such Secret can be read
            return replace(base, secret=had if isinstance(had, Secret) else None)
        secret = secret_or_none(kube, host.namespace, name)
        return replace(base, secret=secret)
    if state is Gate.WAITING:
        mine = base.taken.get(taken_key("Secret", secret_name(host)))
        facts = replace(base, secret=mine if isinstance(mine, Secret) else None)
        if not render and facts.secret is not None:
            return facts
        return _waiting(kube, facts, listed, fresh)
    return _released(kube, base, listed) if state is Gate.NOT_PAUSED else base


def _waiting(kube: Kube, facts: HostFacts, listed: Listed | None, fresh: bool) -> HostFacts:
    host = facts.host
    template = template_for(kube, host)
    if not isinstance(template, Found):
        return replace(facts, template=template)
    pools = pools_for(host, template)
    facts = replace(facts, template=template, pools=pools)
    if isinstance(pools, Problem) or not pools:
        return facts  # nothing to claim: rendered at once (or the problem reported)
    namespace = template.ref.namespace
    metal3_pools = any(p.is_metal3 for p in pools) and not fresh
    claims = _claims(kube, host, namespace, listed) if metal3_pools else {}
    outside = ipam.capi_claims(kube, host, namespace, pools)
    facts = replace(facts, claims=claims, outside=outside)
    metal3 = all(p.name in claims and claims[p.name].status.address for p in pools if p.is_metal3)
    if not (metal3 and ready(pools, outside)):
        return _unready(kube, facts, namespace)
    return replace(
        facts,
        addresses=addresses(kube, claims),
        outside=ipam.capi_addresses(kube, outside, namespace),
        ippools=tuple(kube.list_pools(namespace)),
    )


def _claims(
    kube: Kube, host: BareMetalHost, namespace: str, listed: Listed | None
) -> dict[str, IPClaim]:
    if listed is not None and listed[0] == namespace:
        return mine(host, listed[1])
    return host_claims(kube, host, namespace)


def _unready(kube: Kube, facts: HostFacts, namespace: str) -> HostFacts:
    """Claims still waiting: on a retrying occasion, the pools (only claims of existing pools
    are retried) and, on a tick, why IPAM leaves claims unanswered."""
    retrying = facts.occasion is not Occasion.EVENT and answers.failed(facts.claims.values())
    ippools = tuple(kube.list_pools(namespace)) if retrying else ()
    now = facts.now
    if facts.occasion is not Occasion.TICK or now is None:
        return replace(facts, ippools=ippools)
    stalled = ipam.unanswered(kube, facts.claims, facts.outside, now)
    return replace(facts, ippools=ippools, unanswered=stalled)


def _repairing(kube: Kube, facts: HostFacts, listed: Listed | None) -> HostFacts:
    """BMO cannot register a host we released: its Secret (read once), and when that is gone
    the facts a render needs, read as for a waiting host (`decide.repair`)."""
    secret = facts.secret or released.record_secret(kube, facts.host)
    if secret is not None:
        return replace(facts, secret=secret)
    return _waiting(kube, replace(facts, secret_missing=True), listed, False)


def _released(kube: Kube, facts: HostFacts, listed: Listed | None) -> HostFacts:
    """What CAPM3 borrows; on a tick, the claims the host's record names (`listed` by the
    caller, else one label-scoped LIST) and a hanging host's addresses."""
    host, now = facts.host, facts.now
    if on_host.lendable(host):
        claims, data = released.lending(kube, host)
        named = released.capm3_named(kube, host, claims, data)
        facts = replace(facts, claims=claims, data=data, capm3_named=named)
    if facts.occasion is Occasion.TICK:
        facts = replace(facts, held=released.held(kube, host, listed))
    if facts.gone is not None and not on_host.released(host):
        facts = replace(facts, gone=None)
    if ownership.wants_record(host, facts.held, facts.gone is not None):
        facts = replace(facts, secret=released.record_secret(kube, host))
    if facts.occasion is not Occasion.TICK:
        facts = replace(facts, reclaimed=released.reclaimed(kube, host, listed))
    if on_host.may_have_lost_secret(host):
        facts = _repairing(kube, facts, listed)
    if facts.occasion is Occasion.TICK and now and on_host.hanging(host, now, facts.hang_seconds):
        return replace(facts, hang_addresses=released.claimed_addresses(kube, host))
    return facts
