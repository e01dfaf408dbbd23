"""`dhcpless status` lists hosts that slipped through without the pre-provisioning pause.

Covers: an unpaused host without network data, new or inspecting, is listed as
`registered without pause` with the Warning host-registration recorded as its last reason; an
opted-out host, one past inspection and one paused by someone else are not listed.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterator

import pytest
from kubernetes import client as k8s

from dhcpless import keys
from dhcpless.keys import EventType
from dhcpless.kube import Kube
from dhcpless.tools.status.command import run_status
from dhcpless.tools.status.phase import Phase
from dhcpless_sandbox.apiserver.server import SandboxServer
from tests.support import harness, objects, scenario

pytestmark = pytest.mark.e2e
OPTED_OUT = {keys.PREPROVISIONING_SCOPE_LABEL: keys.SCOPE_DISABLED}


@pytest.fixture
def world() -> Iterator[SandboxServer]:
    with harness.running() as sandbox, sandbox.api_client() as api:
        for name, state in (("h-new", ""), ("h-inspecting", "inspecting"), ("h-old", "available")):
            scenario.create(api, objects.host(name, pause=None))
            if state:
                group, version, plural = scenario.RESOURCES["BareMetalHost"]
                k8s.CustomObjectsApi(api).patch_namespaced_custom_object_status(
                    group,
                    version,
                    objects.NS,
                    plural,
                    name,
                    {"status": {"provisioning": {"state": state}}},
                )
        scenario.create(api, objects.host("h-out", pause=None, labels=OPTED_OUT))
        scenario.create(api, objects.host("bystander", pause=keys.CAPM3_PAUSE, template=None))
        yield sandbox


def _rows(sandbox: SandboxServer) -> dict[str, dict[str, str]]:
    out = io.StringIO()
    with sandbox.api_client() as api:
        assert run_status(objects.NS, True, Kube(api), out) == 0
    return {row["name"]: row for row in json.loads(out.getvalue())["hosts"]}


def test_status_lists_slipped_hosts_with_their_warning(world: SandboxServer) -> None:
    stored = harness.get(world, "BareMetalHost", "h-inspecting") or {}
    fn = harness.client(world, "host-registration")
    assert harness.deliver(fn, EventType.RESOURCE_UPDATE, stored)[0] == 204
    rows = _rows(world)
    assert {name: row["phase"] for name, row in rows.items()} == {
        "h-new": Phase.UNPAUSED.value,
        "h-inspecting": Phase.UNPAUSED.value,
    }
    assert (rows["h-inspecting"]["reason"], rows["h-new"]["reason"]) == ("RegisteredUnpaused", "")
