"""`dhcpless status` against a sandbox in which hosts sit in every phase (built through the API).

Covers: each phase (waiting for template, waiting for claims, claim failed, rendered,
released, inspecting, available, provisioned, deprovisioning, stuck) from the objects alone;
hosts that are not ours are not listed; addresses come from our claims' IPAddresses; the last
reason is our latest Event; the table (within 100 columns; `-o wide` adds the template) and the
JSON form carry the same rows; an unreachable API is one line and exit 1.
"""

from __future__ import annotations

import io
import json
import socket
from collections.abc import Iterator
from typing import Any

import pytest
from kubernetes import client as k8s

from dhcpless import keys
from dhcpless.kube import Kube
from dhcpless.kube.events.recorder import event_body
from dhcpless.models import BareMetalHost, Secret
from dhcpless.reasons import Reason
from dhcpless.refs import HostRef
from dhcpless.tools.status.command import Output, human_age, run_status
from dhcpless.tools.status.phase import Phase
from dhcpless_sandbox.apiserver.server import SandboxServer
from tests.support import harness, objects, scenario

pytestmark = pytest.mark.e2e
OLD, NEW = "2020-01-01T00:00:00Z", "2999-01-01T00:00:00Z"
EXPECTED = {
    "h-template": Phase.WAITING_FOR_TEMPLATE,
    "h-claims": Phase.WAITING_FOR_CLAIMS,
    "h-failed": Phase.CLAIM_FAILED,
    "h-rendered": Phase.RENDERED,
    "h-released": Phase.RELEASED,
    "h-inspecting": Phase.INSPECTING,
    "h-available": Phase.AVAILABLE,
    "h-stuck": Phase.STUCK,
    "h-provisioned": Phase.PROVISIONED,
    "h-deprovisioning": Phase.DEPROVISIONING,
}


def released_host(name: str, at: str) -> dict[str, Any]:
    obj = objects.host(name, pause=None, data_name=name + keys.SECRET_NAME_SUFFIX)
    obj["metadata"]["annotations"][keys.RELEASED_AT_ANNOTATION] = at
    return obj


def claim(host: str, status: dict[str, Any]) -> dict[str, Any]:
    labels = {
        keys.HOST_LABEL: host,
        keys.HOST_NAMESPACE_LABEL: objects.NS,
        keys.MANAGED_BY_LABEL: keys.MANAGED_BY_VALUE,
    }
    meta = {"name": f"{host}-pool4", "namespace": objects.NS, "labels": labels}
    body = {"metadata": meta, "spec": {"pool": {"name": "pool4"}}, "status": status}
    return {"apiVersion": "ipam.metal3.io/v1alpha1", "kind": "IPClaim", **body}


def address(name: str, ip: str) -> dict[str, Any]:
    spec = {"address": ip, "prefix": 24, "gateway": "192.168.10.1", "pool": {"name": "pool4"}}
    meta = {"name": name, "namespace": objects.NS}
    return {
        "apiVersion": "ipam.metal3.io/v1alpha1",
        "kind": "IPAddress",
        "metadata": meta,
        "spec": {**spec, "claim": {"name": "h-available-pool4"}},
    }


def set_status(api: k8s.ApiClient, kind: str, name: str, status: dict[str, Any]) -> None:
    group, version, plural = scenario.RESOURCES[kind]
    k8s.CustomObjectsApi(api).patch_namespaced_custom_object_status(
        group, version, objects.NS, plural, name, {"status": status}
    )


@pytest.fixture(scope="module")
def world() -> Iterator[SandboxServer]:
    with harness.running() as sandbox, sandbox.api_client() as api:
        for obj in (
            objects.POOL4,
            objects.host("h-template"),
            objects.host("h-claims"),
            objects.host("h-failed"),
            objects.host("h-rendered"),
            objects.host("bystander", pause=keys.CAPM3_PAUSE),
            released_host("h-released", NEW),
            released_host("h-inspecting", NEW),
            released_host("h-available", OLD),
            released_host("h-stuck", OLD),
            released_host("h-provisioned", OLD),
            released_host("h-deprovisioning", OLD),
            address("pool4-192-168-10-10", "192.168.10.10"),
        ):
            scenario.create(api, obj)
        for host, status in (
            ("h-claims", {}),
            ("h-failed", {"errorMessage": "Exhausted IP Pools"}),
            ("h-available", {"address": {"name": "pool4-192-168-10-10"}}),
        ):
            scenario.create(api, claim(host, status))
            if status:
                set_status(api, "IPClaim", f"{host}-pool4", status)
        for host, state in (
            ("h-inspecting", "inspecting"),
            ("h-available", "available"),
            ("h-stuck", "inspecting"),
            ("h-released", "registering"),
            ("h-provisioned", "provisioned"),
            ("h-deprovisioning", "deprovisioning"),
        ):
            set_status(api, "BareMetalHost", host, {"provisioning": {"state": state}})
        secret = {"apiVersion": "v1", "kind": "Secret", "data": {"networkData": "e30="}}
        labels = {keys.MANAGED_BY_LABEL: keys.MANAGED_BY_VALUE, keys.HOST_LABEL: "h-rendered"}
        meta = {"name": "h-rendered" + keys.SECRET_NAME_SUFFIX, "namespace": objects.NS}
        scenario.create(api, {**secret, "metadata": {**meta, "labels": labels}})
        ref = HostRef.of(
            BareMetalHost.from_k8s(harness.get(sandbox, "BareMetalHost", "h-template") or {})
        )
        body = event_body(
            ref, Reason.NO_TEMPLATE, "no template selects this host", "metal3-dhcpless"
        )
        event = k8s.CoreV1Event.from_dict(body)
        assert event is not None
        k8s.CoreV1Api(api).create_namespaced_event(objects.NS, event)
        yield sandbox


def status(world: SandboxServer, json_output: bool, wide: bool = False) -> str:
    out = io.StringIO()
    with world.api_client() as api:
        code = run_status(objects.NS, json_output, Kube(api), out, output=Output(wide=wide))
        assert code == 0
    return out.getvalue()


def test_json_lists_every_phase(world: SandboxServer) -> None:
    hosts = {h["name"]: h for h in json.loads(status(world, True))["hosts"]}
    assert {name: h["phase"] for name, h in hosts.items()} == EXPECTED
    assert hosts["h-available"]["addresses"] == ["192.168.10.10/24"]
    assert (hosts["h-template"]["reason"], hosts["h-template"]["message"]) == (
        "NoTemplate",
        "no template selects this host",
    )
    assert hosts["h-claims"]["template"].endswith("/tmpl") and hosts["h-claims"]["reason"] == ""


def test_table_has_the_same_rows(world: SandboxServer) -> None:
    header, *lines = status(world, False).splitlines()
    assert header.split()[:4] == ["NAMESPACE", "NAME", "PHASE", "ADDRESS"]
    assert max(len(line) for line in [header, *lines]) <= 100  # fits a terminal, as kubectl's
    rows = {line.split()[1]: line for line in lines}
    assert set(rows) == set(EXPECTED)
    for name, phase in EXPECTED.items():
        assert f"  {phase.value}  " in rows[name], rows[name]
    assert "192.168.10.10/24" in rows["h-available"] and "NoTemplate" in rows["h-template"]


def test_wide_adds_the_template(world: SandboxServer) -> None:
    header, *lines = status(world, False, wide=True).splitlines()
    assert header.split()[:5] == ["NAMESPACE", "NAME", "PHASE", "TEMPLATE", "ADDRESSES"]
    assert any("/tmpl" in line for line in lines)


def test_unreachable_api_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as probe:  # a port the kernel chose, released: nothing listens
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = k8s.Configuration(host=f"http://127.0.0.1:{port}")
    config.retries = 0
    with k8s.ApiClient(config) as api:
        assert run_status(None, False, Kube(api), io.StringIO()) == 1
    assert capsys.readouterr().err.startswith("dhcpless status: cannot read the cluster:")


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        pytest.param(5, "5s"),
        pytest.param(600, "10m"),
        pytest.param(7300, "2h"),
        pytest.param(3 * 86400, "3d"),
        pytest.param(86400, "24h"),
    ],
)
def test_human_age(seconds: int, text: str) -> None:
    assert human_age(seconds) == text


def test_secret_fixture_is_not_printed(world: SandboxServer) -> None:
    assert Secret.encode("{}") == "e30="
    assert "e30=" not in status(world, True) + status(world, False)
