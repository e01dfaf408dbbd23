"""One reconcile pipeline per host: read the host, gather its facts once, decide, act.

Every function (after its cheap early exits on the event itself) and every resync tick call
`reconcile` with the cause of the run (`chain.cause`), or `run` for a cause whose hosts are
found by reading; there is no second path, and no function reads for itself. Events are
hints, the API is the truth: the host is read here (`gather.entry`), before anything is
written. When a create finds an object under our name, the facts were stale: the round is
decided again with that object known (`act.Found`), at most `ROUNDS` times (then 503: a retry
starts afresh). A just-added host (`cause.HostChanged.added`: nothing of ours is expected
yet) has its claims created without listing them first; a claim already there is such an
object under our name, so that guess costs one more round, never a check.
"""

from __future__ import annotations

import logging
from typing import Final

from dhcpless.chain import act as performer
from dhcpless.chain.cause import Cause, Entry, HostChanged, Key, seeds
from dhcpless.chain.decide import decide
from dhcpless.chain.facts import HostFacts, Taken
from dhcpless.chain.gate import gate
from dhcpless.chain.gather import concerned, entry, gather
from dhcpless.chain.predicates import on_host
from dhcpless.errors import Gone, Transient
from dhcpless.kube.api.client import Kube
from dhcpless.models import BareMetalHost

log = logging.getLogger(__name__)
ROUNDS: Final = 3


def run(kube: Kube, cause: Entry, settings: performer.Reporting) -> tuple[Cause, ...]:
    """The pipeline of each host `cause` concerns (`gather.concerned`: a Secret's users, a
    Metal3Data's borrower, a pool's waiting hosts, the host whose claims all answered), in
    order. Returns the causes run, as completed by those reads (the claims listed, the
    Secret read)."""
    ran: list[Cause] = []
    for host, completed in concerned.concerned(kube, cause):
        reconcile(kube, host, completed, settings)
        ran.append(completed)
    return tuple(ran)


def reconcile(
    kube: Kube, host: BareMetalHost | Key, cause: Cause, settings: performer.Reporting
) -> HostFacts | None:
    """Reconcile `host` for `cause`, which seeds its facts (`gather`): a host as read from
    the API (resync's LIST, a LIST or GET of `run`: never an event's copy), or its (namespace,
    name), read here (`gather.entry.host`). Returns the facts the last round decided on; None
    when the host went or was not worth a run. A just-added host's first round does not count
    against `ROUNDS`."""
    if not isinstance(host, BareMetalHost):
        read = _read(kube, host, cause)
        if read is None:
            return None
        host = read
    taken: dict[str, Taken] = {}
    for round_ in range(ROUNDS + seeds(cause).fresh):
        if round_:
            try:
                host = kube.get_host(host.namespace, host.name)
            except Gone:
                return None
        facts = gather(
            kube, host, cause, taken=taken, profile=settings.ramdisk_profile, later=bool(round_)
        )
        try:
            performer.act(decide(facts), kube, settings, host)
        except performer.Found as found:
            taken[found.key] = found.taken
            continue
        return facts
    raise Transient(f"host {host.namespace}/{host.name}: objects kept appearing under our names")


def _read(kube: Kube, key: Key, cause: Cause) -> BareMetalHost | None:
    """The host named by `key` (`gather.entry.host`), unless a host's event shows it is not
    worth a run (`worth`): on the event's own copy before any read (Resource mode), else on
    the host as read (Reference mode: the one read the event costs)."""
    changed = cause if isinstance(cause, HostChanged) else None
    if changed is not None and changed.seen is not None and not worth(changed.seen):
        log.info("host %s/%s: %s, nothing to do", *key, gate(changed.seen))
        return None
    found = entry.host(kube, key, cause)
    if changed is not None and changed.seen is None and found and not worth(found):
        log.info("host %s/%s: %s, nothing to do", *key, gate(found))
        return None
    return found


def worth(seen: BareMetalHost) -> bool:
    """Pure: paused for us, slipped past the pause, lendable to CAPM3, or released and not
    registering, maybe for want of our Secret (`chain.decide.repair`), or paused with a value
    that only looks like ours (`chain.decide.corner`). Every other host (a released one CAPM3
    has not taken, someone else's pause) costs no read. A done host's updates are not sent to
    us (`chain.decide.quiet`): its lost Secret is repaired by resync's tick; one that reaches
    us anyway is repaired at once."""
    if on_host.done(seen):
        return on_host.may_have_lost_secret(seen)
    return (
        gate(seen).ours
        or on_host.slipped(seen)
        or on_host.lendable(seen)
        or on_host.may_have_lost_secret(seen)
        or on_host.unclear_pause(seen) is not None
    )
