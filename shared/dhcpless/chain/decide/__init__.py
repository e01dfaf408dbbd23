"""Decide: one pure decision per host, `HostFacts` in, frozen actions out (no I/O, no clock).

Every entry (the three functions and resync) reaches the same `decide`, so every path makes
the same checks; only the occasion (`facts.Occasion`) says what may be retried or reported:

* paused for us, BMC booting by PXE (or a driver we do not know): one Warning, nothing else
  (`bmc`);
* paused for us, Secret named: release once that Secret holds valid data (`release`);
* paused for us, waiting: the template's problem, else claims for pools without one
  (`claims`), else failed claims (retried or reported), else render, write, release
  (`write`: a Secret already there is verified against the render, `verify`); a Secret
  known without the render (secret-readiness) or before every address is there cannot be
  verified: a Warning, nothing released (the claims' path verifies it once they render); on
  a tick also why IPAM leaves claims unanswered (`stalls`);
* released: lend our claims to CAPM3 (`lifecycle`), claim again a claim someone deleted
  (`reclaim`: on its DELETE event, or on a tick from the record on its own Secret, asking
  for its address back; `restored`: a Warning when it could not have it), write our Secret
  again when BMO cannot register the host because it is gone (`repair`), on a
  tick one Warning for a host hanging in inspection (`hang`);
* not paused and never released: one Warning when it slipped past the pause (`slipped`).
"""

from __future__ import annotations

from dhcpless.chain.actions import Action, RecordEvent, ReleaseHost
from dhcpless.chain.decide import (
    bmc,
    claims,
    corner,
    hang,
    heal,
    lifecycle,
    reclaim,
    repair,
    repause,
    restored,
    slipped,
    stalls,
    verify,
)
from dhcpless.chain.decide.release import decide_release, event
from dhcpless.chain.decide.write import decide_render
from dhcpless.chain.facts import Found, HostFacts, Occasion, Problem
from dhcpless.chain.gate import Gate, gate
from dhcpless.chain.predicates import answers

Actions = tuple[Action, ...]
__all__ = ["Actions", "decide"]


def decide(facts: HostFacts) -> Actions:
    """Pure: what to do for one host, whichever event or tick brought us here."""
    host = facts.host
    state = gate(host)
    refused = bmc.decide(host) if state.ours else ()
    if refused:  # a ramdisk booted by PXE gets no static data: nothing claimed, nothing released
        return refused
    if state is Gate.NAMED:
        return repause.explain(host, decide_release(host, facts.secret, facts.ramdisk_profile))
    if state is Gate.WAITING:
        return _waiting(facts)
    if state is Gate.NOT_PAUSED:
        return _released(facts)
    if state is Gate.FOREIGN_PAUSE:
        return corner.decide_pause(host)  # nothing unless the value looks like ours
    return ()


def _waiting(facts: HostFacts) -> Actions:
    template, pools = facts.template, facts.pools
    if facts.secret is not None and not _renderable(facts):
        return verify.unverifiable(facts.host, facts.secret)  # never released unchecked
    if template is None:
        return ()
    if isinstance(template, Problem):
        return (*_elsewhere(template), event(facts.host, template.reason, template.message))
    if isinstance(pools, Problem):
        return (event(facts.host, pools.reason, pools.message),)
    missing = claims.missing(facts, pools)
    refused = claims.refusals(facts, missing)
    if refused or missing:
        return (refused or claims.decide_claims(facts, template, missing)) + claims.stale(
            facts, pools
        )
    done = _claimed(facts, template, pools) + _stalled(facts)
    releasing = any(isinstance(a, ReleaseHost) for a in done)
    return claims.stale(facts, pools, releasing) + done


def _renderable(facts: HostFacts) -> bool:
    """Every fact a render needs is there (then an existing Secret is compared with it)."""
    pools = facts.pools
    if not isinstance(facts.template, Found) or isinstance(pools, Problem):
        return False
    have = {*facts.addresses, *facts.outside.addresses}
    return all(p.name in have for p in pools)


def _claimed(facts: HostFacts, template: Found, pools: claims.Pools) -> Actions:
    """Every pool has a claim: retry failed ones when the occasion allows, else render."""
    existing = {p.metadata.name for p in facts.ippools}
    failed = [c for c in answers.failed(facts.claims.values()) if c.spec.pool.name in existing]
    if facts.occasion is not Occasion.EVENT and failed:
        return heal.decide_retry(facts.host, failed)
    return decide_render(facts, template, pools)


def _stalled(facts: HostFacts) -> Actions:
    now = facts.now
    if facts.occasion is not Occasion.TICK or now is None:
        return ()
    return stalls.decide(facts.host, facts.unanswered, now)


def _released(facts: HostFacts) -> Actions:
    host = facts.host
    hung = facts.hang_addresses
    return (
        *slipped.decide_slipped(host),
        *lifecycle.decide(facts),
        *reclaim.decide(facts),
        *restored.decide(facts),
        *repair.decide(facts),
        *(hang.decide_hang(host, hung, facts.hang_seconds) if hung is not None else ()),
    )


def _elsewhere(problem: Problem) -> tuple[RecordEvent, ...]:
    """Warnings on other objects than the host (a broken Metal3MachineTemplate)."""
    return tuple(RecordEvent(ref, problem.reason, text) for ref, text in problem.elsewhere)
