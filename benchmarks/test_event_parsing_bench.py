"""Benchmarks of the edge every invocation pays first: HTTP CloudEvent in, typed event and
model out, and the early exit of an irrelevant event (a host that is not paused for us).

Run with `python3 scripts/dev.py bench` (or pytest -m bench benchmarks/).
"""

from __future__ import annotations

from typing import Any

import pytest
from cloudevents.core.bindings.http import to_binary_event, to_structured_event

from dhcpless import keys
from dhcpless.chain.gate import Gate, gate
from dhcpless.models import BareMetalHost
from dhcpless.serving import edge
from dhcpless.serving.events import EventMode, parse_request, read_cloudevent
from dhcpless_sandbox.controllers.reflector import WatchEvent
from dhcpless_sandbox.demo.inventory import host
from dhcpless_sandbox.eventing.source_events import Mode, make_event

pytestmark = pytest.mark.bench

SOURCE = "https://kubernetes.default.svc"


def _message(mode: Mode, structured: bool, paused: bool = True) -> tuple[dict[str, str], bytes]:
    obj = host(7)
    obj["metadata"]["uid"] = "0f0f0f0f-0000-4000-8000-000000000007"
    if not paused:
        obj["metadata"]["annotations"] = {}
    event = make_event(obj, WatchEvent.MODIFIED, mode, SOURCE)
    message = to_structured_event(event) if structured else to_binary_event(event)
    return dict(message.headers), message.body


@pytest.mark.parametrize(
    ("mode", "structured"),
    [
        pytest.param(Mode.RESOURCE, False, id="resource-binary"),
        pytest.param(Mode.RESOURCE, True, id="resource-structured"),
        pytest.param(Mode.REFERENCE, False, id="reference-binary"),
    ],
)
def test_parse_request(benchmark: Any, mode: Mode, structured: bool) -> None:
    headers, body = _message(mode, structured)
    event = benchmark(parse_request, headers, body)
    assert event.mode is EventMode(mode.value) and event.ref.name == "host-007"


def test_event_to_host_model(benchmark: Any) -> None:
    """What host-registration does before its first API call."""
    headers, body = _message(Mode.RESOURCE, False)

    def run() -> BareMetalHost:
        return edge.hint(
            edge.event_about(read_cloudevent(headers, body), "BareMetalHost"), BareMetalHost
        )

    parsed = benchmark(run)
    assert gate(parsed) is Gate.WAITING and parsed.spec.boot_mac_address


def test_irrelevant_event_early_exit(benchmark: Any) -> None:
    """A status update of a host at rest: parse, model, gate — and nothing else."""
    headers, body = _message(Mode.RESOURCE, False, paused=False)

    def run() -> Gate:
        cloudevent = read_cloudevent(headers, body)
        return gate(edge.hint(edge.event_about(cloudevent, "BareMetalHost"), BareMetalHost))

    assert benchmark(run) is Gate.NOT_PAUSED
    assert keys.PAUSED_ANNOTATION not in _message(Mode.RESOURCE, False, False)[1].decode()
