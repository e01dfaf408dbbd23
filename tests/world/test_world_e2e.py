"""The whole chain in the embedded world: functions over HTTP, IPAM, BMO with glean, resync.

Covers: `run_demo(50)` ends with 50 available hosts and a JSON summary with the counters;
an event source restart mid-batch loses events and the resync ping still brings every host
to `available`; a host whose template puts the address on another NIC is refused or reported
stuck (never silently available); the world's Triggers match `eventing/triggers.yaml`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from kubernetes import client

from dhcpless import keys
from dhcpless_sandbox.demo.inventory import create, host, inventory
from dhcpless_sandbox.demo.report import observe
from dhcpless_sandbox.demo.run import run_demo
from dhcpless_sandbox.runtime.wiring import DELIVERY, TRIGGER_FILTERS
from dhcpless_sandbox.runtime.world import World
from tests.support.waits import eventually, seconds, stays

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.e2e
def test_demo_reaches_50_available(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_demo(50, json_output=True, deadline=seconds(60)) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert (summary["hosts"], summary["unpaused"], summary["available"]) == (50, 50, 50)
    assert summary["stranded"] == 0
    assert summary["stranded_hosts"] == []
    assert summary["invocations"]["host-registration"] >= 50
    assert summary["api_requests"]["create"] >= 50 * 3  # host claim, address, secret at least
    # host-registration and ipclaim-fulfilment at least; secret-readiness gets no event here:
    # the Secret's writer releases its host (README "Performance")
    assert summary["cold_starts"] >= 2
    assert summary["seconds"] < seconds(60)


def all_available(api: client.ApiClient, count: int) -> bool:
    rows = observe(api)
    return len(rows) == count and all(row.state == "available" for row in rows)


@pytest.mark.e2e
def test_resync_recovers_lost_events(world: World) -> None:
    api = world.api_client()
    create(api, inventory(10))
    world.restart_event_source(between=lambda: create(api, [host(i) for i in range(10, 20)]))
    assert eventually(lambda: all_available(api, 20), timeout=60)
    assert world.counters().invocations["resync"] >= 1


@pytest.mark.e2e
def test_wrong_mac_is_refused_or_stuck(world: World) -> None:
    api = world.api_client()
    objects = inventory(0)
    template = objects[2]["spec"]["networkData"]["links"]["ethernets"][0]
    template["macAddress"] = {"string": "52:54:00:ff:ff:ff"}  # not the host's boot NIC
    create(api, [*objects, host(1)])

    def verdict() -> str | None:
        (row,) = observe(api)
        if not row.paused:
            return world.bmo.stuck.get(("demo", row.name))
        events = client.CoreV1Api(api).list_namespaced_event("demo").items
        warnings = [e for e in events if e.involved_object.name == row.name and e.type == "Warning"]
        return warnings[0].message if warnings else None

    reason = eventually(verdict, timeout=20)
    assert "boot NIC" in reason or "52:54:00:00:00:01" in reason
    stays(lambda: observe(api)[0].state != "available", 1.0, "the host staying unavailable")
    assert observe(api)[0].state != "available"


def _triggers() -> dict[str, dict[str, Any]]:
    docs = yaml.safe_load_all((REPO / "eventing" / "triggers.yaml").read_text())
    return {d["metadata"]["name"]: d["spec"] for d in docs if d and d.get("kind") == "Trigger"}


def test_triggers_match_eventing_manifests() -> None:
    manifests = _triggers()
    assert sorted(manifests) == sorted(name.value for name in TRIGGER_FILTERS)
    for name, filters in TRIGGER_FILTERS.items():
        spec = manifests[name.value]
        assert spec["filters"] == filters, name
        delivery = {k: v for k, v in spec["delivery"].items() if k != "deadLetterSink"}
        assert delivery == DELIVERY, name
        assert spec["delivery"]["deadLetterSink"]["ref"]["name"] == "dead-letter"


def test_every_function_has_a_trigger() -> None:
    """Every function has a Trigger, and only functions do."""
    assert {name.value for name in TRIGGER_FILTERS} == {name.value for name in keys.FunctionName}
