"""Huge and pathological payloads: a clear 400 (or 204), or 413 above the size limit
(`dhcpless.limits`), never a 5xx, never a write."""

from __future__ import annotations

import json
import os
from collections.abc import Callable

import pytest
from cloudevents.core.bindings.http import to_binary_event, to_structured_event

from dhcpless import limits
from dhcpless.keys import EventType
from tests.fuzz.count import GENERATED
from tests.fuzz.strategies import Request
from tests.fuzz.test_endpoints import check_answer
from tests.fuzz.world import FUNCTIONS, Fuzzed, Obj, revision
from tests.support import scenario

MIB = 1024 * 1024
STRUCTURED = {"content-type": "application/cloudevents+json"}


def _noise(_: Obj) -> Request:
    return Request({"content-type": "application/json"}, os.urandom(4 * MIB))


def _deep(_: Obj) -> Request:
    return Request(STRUCTURED, b"[" * 200_000 + b"]" * 200_000)


def _huge_annotation(host: Obj) -> Request:
    big = json.loads(json.dumps(host))
    big["metadata"]["annotations"]["x/huge"] = "x" * (4 * MIB)
    event = scenario.cloudevent(EventType.RESOURCE_UPDATE, big)
    message = to_structured_event(event)
    return Request(dict(message.headers), message.body)


def _many_keys(host: Obj) -> Request:
    big = json.loads(json.dumps(host))
    big["metadata"]["labels"] = {f"k{i}": "v" for i in range(100_000)}
    message = to_binary_event(scenario.cloudevent(EventType.RESOURCE_ADD, big))
    return Request(dict(message.headers), message.body)


@pytest.mark.parametrize("function", [pytest.param(f, id=f) for f in FUNCTIONS])
@pytest.mark.parametrize(
    "make",
    [
        pytest.param(_noise, id="4MiB-random-bytes"),
        pytest.param(_deep, id="200k-nested-arrays"),
        pytest.param(_huge_annotation, id="4MiB-annotation"),
        pytest.param(_many_keys, id="100k-labels"),
    ],
)
def test_huge_payloads(world: Fuzzed, function: str, make: Callable[[Obj], Request]) -> None:
    host = next(o for o in world.known if o["metadata"]["name"] == "user-named")
    before = revision(world.sandbox)
    request = make(host)
    if len(request.body) > limits.MAX_EVENT_BYTES:  # refused unread: 413, not retried
        response = world.clients[function].post("/", headers=request.headers, data=request.body)
        assert response.status_code == 413, response.get_data(as_text=True)[:200]
    else:
        check_answer(world.clients[function], request)
    GENERATED[f"{function} (huge)"] += 1
    assert revision(world.sandbox) == before
