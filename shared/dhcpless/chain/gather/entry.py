"""What an entry reads before a host's pipeline runs: the host a cause names by (namespace,
name), and the object a Reference-mode event names.

The function apps read nothing themselves (issue 29): they parse the event, name the host,
build the cause and hand both to `chain.pipeline`, which reads here (the hosts a cause finds
by reading: `gather.concerned`). A BareMetalHost event's cheap exit is taken here, right after
the one read it needs, so a host costs the requests it cost when each function read for
itself (`tests/functions/test_reads_per_event.py`). Reads only.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TypeVar, cast

from dhcpless.chain.cause import Cause, HostChanged, Key
from dhcpless.chain.decide import corner, lifecycle, repair, slipped
from dhcpless.chain.gate import gate
from dhcpless.errors import Gone
from dhcpless.kube.client import Kube
from dhcpless.models import BareMetalHost, IPClaim, IPPool
from dhcpless.models.base import K8sObject

log = logging.getLogger(__name__)
M = TypeVar("M", bound=K8sObject)


def reader(kube: Kube, model: type[M]) -> Callable[[str, str], M]:
    """How a Reference-mode event's object is read by name (`chain.edge.current`)."""
    readers: dict[type[K8sObject], Callable[[str, str], K8sObject]] = {
        BareMetalHost: kube.get_host,
        IPClaim: kube.get_claim,
        IPPool: kube.get_pool,
    }
    return cast(Callable[[str, str], M], readers[model])


def host(kube: Kube, key: Key, cause: Cause) -> BareMetalHost | None:
    """The host as read now (events are hints); None when it is not worth a pipeline, or gone
    (a host's own event: `Gone`, 204, as when the function read it). A BareMetalHost event's
    cheap exit (`worth`) is taken on the event's copy before any read (Resource mode), else
    on the host as read (Reference mode: the one read the event costs)."""
    changed = cause if isinstance(cause, HostChanged) else None
    if changed is not None and changed.seen is not None and not worth(changed.seen):
        _nothing(changed.seen)
        return None
    try:
        found = kube.get_host(*key)
    except Gone:
        if changed is not None:
            raise
        return None  # garbage collection takes its claims
    if changed is not None and changed.seen is None and not worth(found):
        _nothing(found)
        return None
    return found


def _nothing(host: BareMetalHost) -> None:
    log.info("host %s/%s: %s, nothing to do", host.namespace, host.name, gate(host))


def worth(seen: BareMetalHost) -> bool:
    """Pure: paused for us, slipped past the pause, lendable to CAPM3, or released and not
    registering, maybe for want of our Secret (`chain.decide.repair`), or paused with a value
    that only looks like ours (`chain.decide.corner`). Every other host (a released one CAPM3
    has not taken, someone else's pause) costs no read. A done host's updates are not sent to
    us (`chain.decide.quiet`): its lost Secret is repaired by resync's tick; one that reaches
    us anyway is repaired at once."""
    if lifecycle.done(seen):
        return repair.wanted(seen)
    return (
        gate(seen).ours
        or slipped.slipped(seen)
        or lifecycle.lendable(seen)
        or repair.wanted(seen)
        or corner.unclear_pause(seen) is not None
    )
