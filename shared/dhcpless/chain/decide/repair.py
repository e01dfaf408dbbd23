"""Repair: our Secret deleted while its released host uses it is written again (issue 24,
finding 6).

A released host keeps using its Secret (fast track, deploy and cleaning boots: BMO reads it in
every registered state), so when it is deleted BMO stays in `registering` with `failed to fetch
secret`, and nothing of ours noticed until `HostHangs` 15 minutes later: our Secrets carry
`keys.WRITER_RELEASES_LABEL`, so the Secret source sends no event for them. BMO's `registration
error` on the host does reach us (host-registration, and resync on a tick): for a host we
released that names our default Secret, that error is worth one GET of the Secret
(`on_host.may_have_lost_secret`); when it is gone, the host's own claims (the ones it holds for
its whole life) and its template render it again, through the same checks as the first write
(`decide.write`), and a `SecretRestored` Event says so. What cannot be rendered again is a
Warning that names the Secret and why. A Secret of someone else's under the name is not ours to
touch.
"""

from __future__ import annotations

from dhcpless.chain.actions import Action, RecordEvent, WriteSecret
from dhcpless.chain.decide.write import decide_render
from dhcpless.chain.facts import Found, HostFacts, Problem
from dhcpless.chain.gate import secret_name
from dhcpless.models import BareMetalHost
from dhcpless.reasons import Reason
from dhcpless.refs import HostRef


def decide(facts: HostFacts) -> tuple[Action, ...]:
    """Pure: the Secret written again, or why it cannot be (only when `gather` found it
    gone: `HostFacts.secret_missing`)."""
    if not facts.secret_missing:
        return ()
    host, template, pools = facts.host, facts.template, facts.pools
    name = secret_name(host)
    if not isinstance(template, Found) or isinstance(pools, Problem):
        why = template.message if isinstance(template, Problem) else "no template applies"
        why = pools.message if isinstance(pools, Problem) else why
        return (_missing(host, name, why),)
    actions = decide_render(facts, template, pools)
    if not any(isinstance(a, WriteSecret) for a in actions):
        return (*actions, _missing(host, name, "not every claim of the host has its address"))
    said = f"Secret {name} was deleted while the host uses it; written again from its claims"
    return (
        *(a for a in actions if not isinstance(a, RecordEvent)),
        RecordEvent(HostRef.of(host), Reason.SECRET_RESTORED, said),
    )


def _missing(host: BareMetalHost, name: str, why: str) -> RecordEvent:
    message = f"Secret {name}, which the host uses, is gone and cannot be written again: {why}"
    return RecordEvent(HostRef.of(host), Reason.SECRET_MISSING, message)
