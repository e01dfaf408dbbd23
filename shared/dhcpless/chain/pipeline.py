"""One reconcile pipeline per host: read the host, gather its facts once, decide, act.

Every function (after its cheap early exits on the event itself) and every resync tick call
`reconcile` with the cause of the run (`chain.cause`); there is no second path. Events are
hints, the API is the truth: the host is read here, before anything is written. When a create
finds an object under our name, the facts were stale: the round is decided again with that
object known (`act.Found`), at most `ROUNDS` times (then 503: a retry starts afresh). A just
added host (`cause.HostChanged.added`: nothing of ours is expected yet) has its claims created
without listing them first; a claim already there is such an object under our name, so that
guess costs one more round, never a check.
"""

from __future__ import annotations

from typing import Final

from dhcpless.chain import act as performer
from dhcpless.chain.cause import Cause, seeds
from dhcpless.chain.decide import decide
from dhcpless.chain.facts import HostFacts, Taken
from dhcpless.chain.gather import gather
from dhcpless.errors import Gone, Transient
from dhcpless.kube.client import Kube
from dhcpless.models import BareMetalHost

ROUNDS: Final = 3


def reconcile(
    kube: Kube, host: BareMetalHost, cause: Cause, settings: performer.Reporting
) -> HostFacts | None:
    """Reconcile `host`, as read from the API by the caller (a GET, or resync's LIST: never an
    event's copy), for `cause`, which seeds its facts (`gather`). Returns the facts the last
    round decided on; None when the host went. A just-added host's first round does not count
    against `ROUNDS`."""
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
