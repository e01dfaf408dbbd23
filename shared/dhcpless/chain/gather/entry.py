"""What an entry reads before a host's pipeline runs: the host a cause names by (namespace,
name), and the object a Reference-mode event names.

The function apps read nothing themselves (issue 29): they parse the event, name the host,
build the cause and hand both to `chain.pipeline`, which reads here (the hosts a cause finds
by reading: `gather.concerned`), so a host costs the requests it cost when each function read
for itself (`tests/functions/test_reads_per_event.py`). Reads only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar, cast

from dhcpless.chain.cause import Cause, HostChanged, Key
from dhcpless.errors import Gone
from dhcpless.kube.api.client import Kube
from dhcpless.models import BareMetalHost, IPClaim, IPPool
from dhcpless.models.base import K8sObject

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
    """The host as read now (events are hints); None when it is gone, except for a host's own
    event (`Gone`: 204, as when the function read it): garbage collection takes its claims."""
    try:
        return kube.get_host(*key)
    except Gone:
        if isinstance(cause, HostChanged):
            raise
        return None
