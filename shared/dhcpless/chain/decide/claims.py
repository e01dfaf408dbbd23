"""A waiting host's claims: one per pool, `<host>-<pool>` (DESIGN §3), created only where
none of ours is there yet; an object under that name that is not ours is reported.

A create of ours that finds an object under our name (`HostFacts.taken`) is judged by
identity (`chain.identity`): a predecessor's terminating claim is a reason to wait, anyone
else's a conflict; the host stays paused either way.
"""

from __future__ import annotations

from dhcpless.chain import identity
from dhcpless.chain.actions import (
    Action,
    CreateIPAddressClaim,
    CreateIPClaim,
    DeleteIPClaim,
    RecordEvent,
)
from dhcpless.chain.decide import external
from dhcpless.chain.facts import Found, HostFacts, Occasion, taken_key
from dhcpless.reasons import Reason
from dhcpless.refs import HostRef
from dhcpless.render import PoolRef

Actions = tuple[Action, ...]
Pools = tuple[PoolRef, ...]
IPCLAIM, CAPI_CLAIM = "IPClaim", "IPAddressClaim"


def event(facts: HostFacts, reason: Reason, message: str) -> RecordEvent:
    return RecordEvent(HostRef.of(facts.host), reason, message)


def missing(facts: HostFacts, pools: tuple[PoolRef, ...]) -> tuple[PoolRef, ...]:
    """Pure: the pools without a claim of ours (Metal3 IPClaim or CAPI IPAddressClaim)."""
    return tuple(
        p for p in pools if p.name not in (facts.claims if p.is_metal3 else facts.outside.claims)
    )


def refusals(facts: HostFacts, pools: tuple[PoolRef, ...]) -> Actions:
    """Pure: the Warning for each missing pool whose name a create found taken."""
    ref, found = HostRef.of(facts.host), list[Action]()
    for pool in pools:
        kind = IPCLAIM if pool.is_metal3 else CAPI_CLAIM
        taken = facts.taken.get(taken_key(kind, f"{facts.host.name}-{pool.name}"))
        refused = None if taken is None else identity.refusal(ref, kind, taken.metadata)
        found += [] if refused is None else [refused]
    return tuple(found)


def stale(facts: HostFacts, pools: tuple[PoolRef, ...], releasing: bool = False) -> Actions:
    """Pure: our claims of a still-waiting host for pools its template no longer references
    (relabelled to another template, or the template edited; issue 24, finding 8) are
    deleted, so their addresses are free again: the host never used them (it is paused). On a
    resync tick, so an edit in progress costs no churn, and in the round that releases the
    host (`releasing`: the data it gets is final, and once released it is no longer waiting,
    so no later tick would look); an event's other paths leave them. Put before the release:
    a delete that fails after the release succeeded would leave the claim for ever (the retry
    finds a released host, which no path looks at for this); one done before a release that
    fails is reported all the same (`chain.act` posts the Events of the writes it made)."""
    if facts.occasion is not Occasion.TICK and not releasing:
        return ()
    wanted, ref = {p.name for p in pools if p.is_metal3}, HostRef.of(facts.host)
    actions: list[Action] = []
    for pool, claim in sorted(facts.claims.items()):
        if pool in wanted or claim.metadata.deletion_timestamp:
            continue
        namespace = claim.metadata.namespace or facts.host.namespace
        message = (
            f"IPClaim {namespace}/{claim.metadata.name}: pool {pool} is no longer used by the "
            "host's template; deleted, its address is free again (the host never used it)"
        )
        actions += [
            DeleteIPClaim(namespace, claim.metadata.name, ref),
            RecordEvent(ref, Reason.CLAIM_RELEASED, message),
        ]
    return tuple(actions)


def decide_claims(facts: HostFacts, found: Found, pools: tuple[PoolRef, ...]) -> Actions:
    """One claim per missing pool, in the template's (= pools') namespace: an IPClaim for a
    Metal3 IPPool, an IPAddressClaim for any other kind (`decide.external`). The template and
    every pool are recorded on IPClaims when all pools are Metal3 ones."""
    host, namespace = facts.host, found.ref.namespace
    every = tuple(p.name for p in _all(facts))
    every = every if all(p.is_metal3 for p in _all(facts)) else ()
    template = str(found.ref) if every else ""
    ref = HostRef.of(host)
    claims: tuple[CreateIPClaim | CreateIPAddressClaim, ...] = (
        *(
            CreateIPClaim(namespace, f"{host.name}-{p.name}", p.name, ref, template, every)
            for p in pools
            if p.is_metal3
        ),
        *external.claim_actions(host, namespace, pools),
    )
    names = ", ".join(c.name for c in claims)
    return (
        event(facts, Reason.TEMPLATE_CHOSEN, f"using {found.ref}"),
        *claims,
        event(facts, Reason.CLAIMS_CREATED, f"IPClaims in {namespace}: {names}"),
    )


def _all(facts: HostFacts) -> tuple[PoolRef, ...]:
    return () if not isinstance(facts.pools, tuple) else facts.pools
