"""Resolution fails small, end to end through host-registration (issue 14, finding 10).

A Metal3MachineTemplate whose selector CAPM3's code refuses blocks only the hosts it could
select; it gets one Warning on itself however many hosts it blocks, and each blocked host
its own Warning naming it. A host the broken template cannot select (a valid requirement
rules it out) is registered as usual. A dataTemplate in another namespace is refused with a
Warning and nothing claimed.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest
from kubernetes import client as k8s

from dhcpless.keys import EventType
from dhcpless_sandbox.apiserver.server import SandboxServer
from tests.support import harness, objects

FN = "host-registration"


@pytest.fixture
def world() -> Iterator[SandboxServer]:
    with harness.running() as sandbox:
        harness.put(sandbox, objects.POOL4)
        harness.put(sandbox, objects.POOL6)
        harness.put(sandbox, objects.data_template(objects.DUAL))
        yield sandbox


def _broken_for_workers() -> dict[str, Any]:
    m3mt = objects.machine_template("broken", "tmpl", {"role": "worker"})
    spec = m3mt["spec"]["template"]["spec"]
    # The CRD requires `values`; CAPM3 lower-cases the operator, and "doesnotexist" is no
    # selection operator, so its selector code refuses the template.
    expression = {"key": "retired", "operator": "DoesNotExist", "values": []}
    spec["hostSelector"]["matchExpressions"] = [expression]
    return m3mt


def _host(name: str, role: str) -> dict[str, Any]:
    return objects.host(name=name, template=None, labels={"role": role})


def _register(world: SandboxServer, host: dict[str, Any]) -> None:
    stored = harness.put(world, host)
    assert harness.deliver(harness.client(world, FN), EventType.RESOURCE_ADD, stored) == (204, "")


def _events_on(world: SandboxServer, kind: str, name: str) -> list[tuple[str, str, str]]:
    with world.api_client() as api:
        listing = k8s.CoreV1Api(api).list_namespaced_event(objects.NS)
    return [
        (e.type or "", e.reason or "", e.message or "")
        for e in listing.items
        if e.involved_object.kind == kind and e.involved_object.name == name
    ]


def test_a_broken_template_blocks_only_the_hosts_it_could_select(world: SandboxServer) -> None:
    harness.put(world, _broken_for_workers())
    harness.put(world, objects.machine_template("control", "tmpl", {"role": "control"}))
    for host in (_host("w1", "worker"), _host("w2", "worker"), _host("c1", "control")):
        _register(world, host)
    assert harness.get(world, "IPClaim", "c1-pool4") is not None  # not blocked
    assert harness.get(world, "IPClaim", "w1-pool4") is None  # blocked
    for worker in ("w1", "w2"):
        reasons = [
            (t, r) for t, r, m in _events_on(world, "BareMetalHost", worker) if "broken" in m
        ]
        assert reasons == [("Warning", "InvalidTemplate")]
    on_template = _events_on(world, "Metal3MachineTemplate", "broken")
    assert [(t, r) for t, r, _ in on_template] == [("Warning", "InvalidTemplate")]
    assert "DoesNotExist" in on_template[0][2]


def test_a_data_template_in_another_namespace_is_refused(world: SandboxServer) -> None:
    far = copy.deepcopy(objects.machine_template("far", "tmpl", {"role": "worker"}))
    far["spec"]["template"]["spec"]["dataTemplate"]["namespace"] = "elsewhere"
    harness.put(world, far)
    _register(world, _host("w1", "worker"))
    assert harness.get(world, "IPClaim", "w1-pool4") is None
    messages = [m for t, r, m in _events_on(world, "BareMetalHost", "w1") if t == "Warning"]
    assert len(messages) == 1 and "another namespace" in messages[0]
    assert [r for _, r, _ in _events_on(world, "Metal3MachineTemplate", "far")] == [
        "InvalidTemplate"
    ]
