"""With the `otel` extra asked for, each delivery is one span of the chain's one trace.

The same chain as `test_logs_and_traces` (three functions, a new broker trace per delivery),
with spans recorded by the SDK's in-memory exporter (`otel.use`). Covers: one server span per
delivery, all in the first delivery's trace, the first a child of the broker's span; each span
names its event and answer; what a function writes carries its own span (the next function's
parent); span attributes hold no Secret byte; without the SDK's variables nothing is traced
and `opentelemetry` is not even needed.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from dhcpless import keys
from dhcpless.serving import otel
from tests.functions.test_logs_and_traces import FIRST, TRACE, run_chain
from tests.support import harness
from tests.support.waits import seconds

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def spans() -> Iterator[InMemorySpanExporter]:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    otel.use(provider.get_tracer("test"))
    try:
        yield exporter
    finally:
        otel.use(None)
        provider.shutdown()


@pytest.fixture
def chain(spans: InMemorySpanExporter) -> Iterator[tuple[list[ReadableSpan], dict[str, Any]]]:
    with harness.running() as sandbox:
        claim, secret = run_chain(sandbox)
        yield list(spans.get_finished_spans()), {"claim": claim, "secret": secret}


def _by_event(found: list[ReadableSpan]) -> dict[str, ReadableSpan]:
    """Each delivery's span in the chain's trace (secret-readiness also has one in the broker's:
    it reads the Secret, whose trace it then follows, after its span began)."""
    return {
        str((s.attributes or {})["cloudevents.event_id"]): s
        for s in found
        if f"{s.context.trace_id:032x}" == TRACE
    }


def test_one_span_per_delivery_in_one_trace(
    chain: tuple[list[ReadableSpan], dict[str, Any]],
) -> None:
    found = _by_event(chain[0])
    assert set(found) == {"e-host", "e-claim", "e-secret"}
    assert len(chain[0]) == 4  # and secret-readiness's first span, in the broker's trace
    first = found["e-host"]
    assert first.parent is not None and f"{first.parent.span_id:016x}" == FIRST.split("-")[2]
    assert first.name == "host-registration dev.knative.apiserver.resource.add"
    assert (first.attributes or {})["http.response.status_code"] == 204


def test_what_a_function_writes_carries_its_own_span(
    chain: tuple[list[ReadableSpan], dict[str, Any]],
) -> None:
    found = _by_event(chain[0])
    registration = f"{found['e-host'].context.span_id:016x}"
    stamped = chain[1]["claim"]["metadata"]["annotations"][keys.TRACEPARENT_ANNOTATION]
    assert stamped == f"00-{TRACE}-{registration}-01"
    fulfilment = found["e-claim"]
    assert fulfilment.parent is not None and f"{fulfilment.parent.span_id:016x}" == registration


def test_no_span_holds_the_secrets_data(
    chain: tuple[list[ReadableSpan], dict[str, Any]],
) -> None:
    encoded = chain[1]["secret"]["data"][keys.NETWORK_DATA_KEY]
    values = [str(v) for s in chain[0] for v in (s.attributes or {}).values()]
    assert values and not [v for v in values if encoded in v or "192.168.10" in v]


@pytest.mark.parametrize(
    ("env", "wanted"),
    [
        pytest.param({}, False, id="nothing-set"),
        pytest.param({"OTEL_TRACES_EXPORTER": "none"}, False, id="exporter-none"),
        pytest.param({"OTEL_TRACES_EXPORTER": "otlp"}, True, id="exporter-otlp"),
        pytest.param({"OTEL_EXPORTER_OTLP_ENDPOINT": "http://collector:4318"}, True, id="endpoint"),
    ],
)
def test_traces_only_when_the_sdks_variables_ask(env: dict[str, str], wanted: bool) -> None:
    assert otel.wanted(env) is wanted
    if not wanted:
        assert otel.tracer(env) is None


OFF = """
import sys
from functions.dead_letter.app import create_app
client = create_app().test_client()
answer = client.post("/", headers={"ce-specversion": "1.0", "ce-id": "1", "ce-source": "s",
                                   "ce-type": "t", "traceparent": "%s"}, data=b"")
assert answer.status_code == 204, answer.status_code
print(sorted(m for m in sys.modules if m.startswith("opentelemetry")))
"""


def test_off_nothing_of_opentelemetry_is_imported() -> None:
    """A function served without the SDK's variables never imports `opentelemetry`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("OTEL_")}
    done = subprocess.run(
        [sys.executable, "-c", OFF % FIRST], env=env, capture_output=True, text=True,
        timeout=seconds(60), check=False, cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
