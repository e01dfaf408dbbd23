"""The W3C trace context of the delivery being handled, carried onto what the adapter writes.

Knative's brokers send a `traceparent` header with every delivery (eventing
`pkg/kncloudevents/http_client.go`: an otelhttp transport), and CloudEvents carries the same
value as the `traceparent` extension in structured mode (the distributed-tracing extension).
The serving layer sets `CURRENT` for the request (the chain sets `HOST`, for the log lines);
the adapter stamps it on every object it creates and every Event it records
(`keys.TRACEPARENT_ANNOTATION`), and the log formatter prints its trace id, so one host's
chain across the three functions reads as one trace. A header that is not a valid version-00
`traceparent` (W3C Trace Context, section 3.2) is ignored, as the specification asks.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, MutableMapping
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from dhcpless.keys import TRACEPARENT_ANNOTATION

_FORMAT = re.compile(r"^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$")
_ZERO_TRACE, _ZERO_SPAN = "0" * 32, "0" * 16


@dataclass(frozen=True)
class TraceParent:
    """One `traceparent`: the trace, the caller's span, the flags (01: sampled)."""

    trace_id: str
    span_id: str
    flags: str = "01"

    @property
    def header(self) -> str:
        return f"00-{self.trace_id}-{self.span_id}-{self.flags}"


CURRENT: ContextVar[TraceParent | None] = ContextVar("dhcpless_traceparent", default=None)
"""The trace of the delivery this thread handles (None outside a request, or without one)."""

HOST: ContextVar[str | None] = ContextVar("dhcpless_host", default=None)
"""`<namespace>/<name>` of the host the chain decides about now (`bind_host`), for the logs."""


def bind_host(namespace: str, name: str) -> None:
    """Name the host being decided about on the log lines that follow (`serving.logs`)."""
    HOST.set(f"{namespace}/{name}")


def parse(value: object) -> TraceParent | None:
    """A valid `traceparent` value, else None (all-zero ids are invalid)."""
    match = _FORMAT.match(value.strip().lower()) if isinstance(value, str) else None
    if match is None or match[1] == _ZERO_TRACE or match[2] == _ZERO_SPAN:
        return None
    return TraceParent(match[1], match[2], match[3])


def follow(annotations: Mapping[str, str] | None) -> None:
    """Continue the trace that wrote an object (its annotation), when it has one: the chain's
    next step is one trace with the step that made the object, whatever trace the source's
    delivery started (an ApiServerSource event begins a trace of its own)."""
    found = parse((annotations or {}).get(TRACEPARENT_ANNOTATION))
    if found is not None and found != CURRENT.get():
        CURRENT.set(found)
        if (hook := ON_FOLLOW.get()) is not None:
            hook(found)  # a span already open for this delivery: one more, in the chain's trace


ON_FOLLOW: ContextVar[Callable[[TraceParent], None] | None] = ContextVar(
    "dhcpless_on_follow", default=None
)
"""Called when a delivery follows an object's trace after its span began (`serving.otel`)."""


def stamp(body: MutableMapping[str, Any]) -> None:
    """Put the current `traceparent` on an object body about to be written (if any)."""
    current = CURRENT.get()
    if current is not None:
        metadata = body.setdefault("metadata", {})
        annotations = metadata.get("annotations") or {}
        metadata["annotations"] = {**annotations, TRACEPARENT_ANNOTATION: current.header}
