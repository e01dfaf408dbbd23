"""OpenTelemetry spans for deliveries, when asked for: the optional `otel` extra.

Off unless the SDK's own variables ask for traces (`OTEL_TRACES_EXPORTER` other than `none`,
or an OTLP endpoint); then, and only then, `opentelemetry` is imported, and a missing extra
stops the container at start naming it. Each delivery is one server span, child of the
`traceparent` that came in (or of the object's trace, `tracing.follow`), carrying the event's
id, type and subject and the answer's status; `tracing.CURRENT` becomes that span, so what the
function writes (`keys.TRACEPARENT_ANNOTATION`) and logs names it, and any OTLP backend shows
one host's registration, claims and release as one trace. Attributes are event attributes
only: never object data, so never a Secret's.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from dhcpless import tracing

WANTED = ("OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
_tracer: Any = None


def wanted(env: Mapping[str, str] = os.environ) -> bool:
    """Whether the environment asks for traces (the SDK's variables, nothing of ours)."""
    exporter = env.get("OTEL_TRACES_EXPORTER", "").strip().lower()
    return (bool(exporter) and exporter != "none") or any(env.get(k) for k in WANTED)


def use(tracer: Any) -> None:
    """Spans go to `tracer` (tests, or an embedding program); None turns them off again."""
    global _tracer
    _tracer = tracer


def tracer(env: Mapping[str, str] = os.environ) -> Any:
    """The tracer deliveries use: the one `use` gave, else an OTLP one when wanted, else None."""
    if _tracer is not None or not wanted(env):
        return _tracer
    try:
        from opentelemetry import trace
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import (  # type: ignore[import-not-found,unused-ignore]
            OTLPSpanExporter,
        )
        from opentelemetry.sdk.resources import Resource
        from opentelemetry.sdk.trace import TracerProvider
        from opentelemetry.sdk.trace.export import BatchSpanProcessor
    except ImportError as err:
        missing = f"OTEL_* asks for traces, but the `otel` extra is missing ({err.name})"
        raise SystemExit(missing) from None
    service = env.get("K_SERVICE") or env.get("FUNCTION") or "metal3-dhcpless"
    provider = TracerProvider(resource=Resource.create({"service.name": service}))
    provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
    trace.set_tracer_provider(provider)
    use(trace.get_tracer("dhcpless"))
    return _tracer


class Spans:
    """The spans of one delivery: its own, plus one in each object's trace it follows later
    (secret-readiness reads the Secret, and so its chain's trace, after the span began)."""

    def __init__(self, active: Any, name: str, attributes: Mapping[str, str]) -> None:
        self.active, self.name, self.attributes = active, name, dict(attributes)
        self.open: list[Any] = []

    def child_of(self, parent: tracing.TraceParent | None) -> None:
        """A server span under `parent` (a root without one); `tracing.CURRENT` names it."""
        from opentelemetry import trace
        from opentelemetry.trace import NonRecordingSpan, SpanContext, SpanKind, TraceFlags

        context = None
        if parent is not None:
            remote = SpanContext(
                int(parent.trace_id, 16), int(parent.span_id, 16), True,
                TraceFlags(int(parent.flags, 16)),
            )  # fmt: skip
            context = trace.set_span_in_context(NonRecordingSpan(remote))
        span = self.active.start_span(
            self.name, context=context, kind=SpanKind.SERVER, attributes=self.attributes
        )
        self.open.append(span)
        own = span.get_span_context()
        trace_id, span_id = f"{own.trace_id:032x}", f"{own.span_id:016x}"
        tracing.CURRENT.set(tracing.TraceParent(trace_id, span_id, f"{int(own.trace_flags):02x}"))


def start(name: str, attributes: Mapping[str, str]) -> Spans | None:
    """The delivery's spans, the first a child of `tracing.CURRENT`; None with traces off."""
    active = tracer()
    if active is None:
        return None
    spans = Spans(active, name, attributes)
    spans.child_of(tracing.CURRENT.get())
    tracing.ON_FOLLOW.set(spans.child_of)
    return spans


def end(spans: Spans | None, status: int, outcome: str) -> None:
    """Close the delivery's spans with its answer (an error status for 5xx, as HTTP servers)."""
    if spans is None:
        return
    from opentelemetry.trace import Status, StatusCode

    for span in spans.open:
        span.set_attribute("http.response.status_code", status)
        span.set_attribute("dhcpless.outcome", outcome)
        if status >= 500:
            span.set_status(Status(StatusCode.ERROR))
        span.end()
