"""core/v1 Events on the BareMetalHost: what `kubectl describe bmh` shows the user.

One Event per decision that matters, including every reason a host stays paused. Events are
deduplicated by name: the name is derived from the host's UID, the reason and the message, so
a redelivered CloudEvent that reaches the same decision writes nothing new (an existing Event is
an `AlreadyExists` outcome, ignored) — at-least-once delivery does not flood the host's Events.
Messages are short and never contain Secret data.

Posted off the handler's path (`kube.events.posting`: a queue and one thread, as client-go's
`tools/record` and kopf's poster do), except the Events in `INLINE`: they report a change no
later delivery decides again, so the handler posts them itself, right after the write they
report, and a host is never released with its Event still waiting in a queue. The others are
said again by the next delivery or resync that finds the host in the same state, should the
process be killed before its queue was flushed. Each Event carries the time it was decided,
so `kubectl describe` orders them as decided, whichever was posted first.
"""

from __future__ import annotations

import hashlib
import logging
from datetime import UTC, datetime
from typing import Any

from dhcpless import names, tracing
from dhcpless.errors import AlreadyExists, DhcplessError
from dhcpless.kube.api.client import Kube
from dhcpless.kube.events import posting
from dhcpless.reasons import Reason
from dhcpless.refs import HostRef

log = logging.getLogger(__name__)
MAX_MESSAGE = 1024
INLINE = frozenset({Reason.HOST_RELEASED})
"""Posted by the handler itself: the release is never decided again, so its Event would not be."""


def record(kube: Kube, host: HostRef, reason: Reason, message: str, component: str) -> None:
    """One Event on `host` (idempotent: the same decision twice is one Event); queued, or
    posted at once for the reasons in `INLINE` — and queued if that post fails: the change it
    reports is made, so the handler must not fail now (a retry would not say it again)."""
    body = event_body(host, reason, message, component)
    name = str(body["metadata"]["name"])
    pending = posting.Pending(name, lambda: kube.create_event(host.namespace, body))
    if reason in INLINE:
        try:
            pending.post()
            return
        except AlreadyExists:
            return
        except DhcplessError as err:
            log.warning("event %s queued after a failed post (%s)", name, type(err).__name__)
    posting.POSTER.submit(pending)


def flush(timeout: float = posting.FLUSH_SECONDS) -> bool:
    """Wait until the queued Events are posted (tests, exit hooks); False at `timeout`."""
    return posting.flush(timeout)


def event_body(host: HostRef, reason: Reason, message: str, component: str) -> dict[str, Any]:
    """The core/v1 Event object (pure, so its shape is tested without an API server)."""
    now = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    body: dict[str, Any] = {
        "apiVersion": "v1",
        "kind": "Event",
        "metadata": {"name": _name(host, reason, message), "namespace": host.namespace},
        "involvedObject": {
            "apiVersion": host.api_version,
            "kind": host.kind,
            "name": host.name,
            "namespace": host.namespace,
            "uid": host.uid,
        },
        "reason": reason.value,
        "message": message[:MAX_MESSAGE],
        "type": reason.severity.value,
        "source": {"component": component},
        "reportingComponent": component,
        "reportingInstance": component,
        "firstTimestamp": now,
        "lastTimestamp": now,
        "count": 1,
    }
    tracing.stamp(body)  # the delivery that decided it, when a traceparent came with it
    return body


def _name(host: HostRef, reason: Reason, message: str) -> str:
    """`<host>.<digest>`, fitting the API's name limit for any host name (`names.event_name`):
    a long host name must not make the Event saying so unwritable."""
    digest = hashlib.sha256(f"{host.uid}|{reason}|{message}".encode()).hexdigest()
    return names.event_name(host.name, digest)
