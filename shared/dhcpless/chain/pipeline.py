"""One reconcile pipeline per host: read the host, gather its facts once, decide, act.

Every function (after its cheap early exits on the event itself) and every resync tick call
`reconcile`; there is no second path. Events are hints, the API is the truth: the host is
read here, before anything is written. When a create finds an object under our name, the
facts were stale: the round is decided again with that object known (`act.Found`), at most
`ROUNDS` times (then 503: a retry starts afresh). A `fresh` host (host-registration's ADD
event: nothing of ours is expected yet) has its claims created without listing them first;
a claim already there is such an object under our name, so that guess costs one more round,
never a check.
"""

from __future__ import annotations

from datetime import datetime
from typing import Final

from dhcpless.chain import act as performer
from dhcpless.chain.decide import decide
from dhcpless.chain.facts import HostFacts, Occasion, Taken, taken_key
from dhcpless.chain.gather import Listed, gather
from dhcpless.errors import Gone, Transient
from dhcpless.kube.api.client import Kube
from dhcpless.models import BareMetalHost, IPClaim, Secret

ROUNDS: Final = 3


def reconcile(
    kube: Kube,
    host: BareMetalHost,
    settings: performer.Reporting,
    occasion: Occasion = Occasion.EVENT,
    now: datetime | None = None,
    *,
    gone: IPClaim | None = None,
    hang_seconds: float = 0.0,
    known: tuple[Secret, ...] = (),
    listed: Listed | None = None,
    fresh: bool = False,
) -> HostFacts | None:
    """Reconcile `host`, as read from the API by the caller (a GET, or resync's LIST: never an
    event's copy). Returns the facts the last round decided on; None when the host went.
    `known`: Secrets this invocation read already (secret-readiness): not read again; a
    waiting host's Secret so known releases nothing (`decide.verify`: only the claims' path,
    which reads the render facts, can check it).
    `listed`: the host's claims its caller listed already (first round only). `fresh`: the
    caller's event says the host was just added: its claims are not listed in the first round
    (`gather`), which then does not count against `ROUNDS`."""
    taken: dict[str, Taken] = {taken_key("Secret", s.metadata.name): s for s in known}
    for round_ in range(ROUNDS + fresh):
        if round_:
            try:
                host = kube.get_host(host.namespace, host.name)
            except Gone:
                return None
        facts = gather(
            kube, host, occasion, now, taken=taken, gone=gone, hang_seconds=hang_seconds,
            profile=settings.ramdisk_profile, render=not known,
            listed=listed if not round_ else None, fresh=fresh and not round_,
        )  # fmt: skip
        try:
            performer.act(decide(facts), kube, settings, host)
        except performer.Found as found:
            taken[found.key] = found.taken
            continue
        return facts
    raise Transient(f"host {host.namespace}/{host.name}: objects kept appearing under our names")
