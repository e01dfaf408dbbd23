"""Our Metal3PreprovisioningDataTemplate in the embedded world (issue 6 item 1).

The CRD ships as package data identical to `deploy/crds/` (so `dhcpless demo`/`sandbox` serve it
without a checkout), the world loads it, and the demo's last host names a template of that kind
in the reference annotation while also matching the Metal3MachineTemplate's hostSelector: the
annotation wins, and the host still reaches `available`.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from kubernetes import client

from dhcpless import keys
from dhcpless.crds import crd_files
from dhcpless_sandbox.demo.inventory import PREPROVISIONING_TEMPLATE, create, inventory
from dhcpless_sandbox.demo.report import observe
from dhcpless_sandbox.runtime.world import World
from tests.support.waits import eventually

REPO = Path(__file__).resolve().parents[2]
DEPLOYED = REPO / "deploy" / "crds" / "metal3preprovisioningdatatemplates.yaml"


def test_packaged_crd_is_byte_identical_to_deploy() -> None:
    packaged = {f.name: f.read_bytes() for f in crd_files()}
    assert packaged[DEPLOYED.name] == DEPLOYED.read_bytes()


@pytest.mark.parametrize(
    ("hosts", "annotated"),
    [
        pytest.param(1, [], id="one-host-uses-the-selector"),
        pytest.param(3, ["host-002"], id="last-host-names-our-template"),
    ],
)
def test_demo_inventory_annotates_the_last_host(hosts: int, annotated: list[str]) -> None:
    objs = inventory(hosts)
    found = [
        o["metadata"]["name"]
        for o in objs
        if keys.TEMPLATE_REFERENCE_ANNOTATION in (o["metadata"].get("annotations") or {})
    ]
    assert found == annotated
    assert all(o["metadata"].get("labels") == {"role": "worker"} for o in objs[-hosts:])


def _chosen(api: client.ApiClient, name: str) -> list[str]:
    events = client.CoreV1Api(api).list_namespaced_event("demo").items
    return [
        e.message or ""
        for e in events
        if e.involved_object.name == name and e.reason == "TemplateChosen"
    ]


@pytest.mark.e2e
def test_annotated_host_uses_our_template_and_becomes_available(world: World) -> None:
    api = world.api_client()
    create(api, inventory(3))
    assert eventually(lambda: [r.state for r in observe(api)] == ["available"] * 3, timeout=30)
    ours = f"metal3preprovisioningdatatemplates.{keys.CAPM3_GROUP}/demo/{PREPROVISIONING_TEMPLATE}"
    assert [ours in m for m in _chosen(api, "host-002")] == [True]
    assert [ours in m for m in _chosen(api, "host-000")] == [False]
