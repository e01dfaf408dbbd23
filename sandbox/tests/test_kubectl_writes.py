"""kubectl writing to the sandbox, with only our CRDs, as a Metal3 guide has people do.

Each test runs the real kubectl and asserts what a real server would hold: objects created
from protobuf bodies (`create namespace|secret|configmap|serviceaccount`), server-side apply
with two field managers, 415 for strategic merge on a BareMetalHost, `delete --dry-run=server`
deleting nothing, and a realistic inventory applied without any upstream CRD.
"""

from __future__ import annotations

import base64
from pathlib import Path

import pytest

from dhcpless_sandbox.apiserver.server import SandboxServer

from .kubectl_helpers import HOST, Run, get, ok, runner

pytestmark = pytest.mark.kubectl


@pytest.fixture
def kubectl(sandbox: SandboxServer, tmp_path: Path) -> Run:
    return runner(sandbox, tmp_path)


def test_create_namespace_secret_configmap_serviceaccount(kubectl: Run, tmp_path: Path) -> None:
    password = tmp_path / "password"
    password.write_text("s3cret\n")
    ok(kubectl("create", "namespace", "site-a"))
    ok(
        kubectl(
            "create",
            "secret",
            "generic",
            "node-0-bmc",
            "-n",
            "site-a",
            "--from-literal=username=admin",
            f"--from-file={password}",
        )
    )
    ok(kubectl("create", "configmap", "inventory", "-n", "site-a", "--from-literal=rack=r1"))
    ok(kubectl("create", "serviceaccount", "operator", "-n", "site-a"))
    assert get(kubectl, "namespace", "site-a")["status"]["phase"] == "Active"
    secret = get(kubectl, "secret", "node-0-bmc", "-n", "site-a")
    decoded = {k: base64.b64decode(v).decode() for k, v in secret["data"].items()}
    assert (decoded, secret["type"]) == ({"username": "admin", "password": "s3cret\n"}, "Opaque")
    assert get(kubectl, "configmap", "inventory", "-n", "site-a")["data"] == {"rack": "r1"}
    assert (
        get(kubectl, "serviceaccount", "operator", "-n", "site-a")["metadata"]["name"] == "operator"
    )
    table = ok(kubectl("get", "secrets", "-n", "site-a")).splitlines()
    assert table[0].split() == ["NAME", "TYPE", "DATA", "AGE"]
    assert table[1].split()[:3] == ["node-0-bmc", "Opaque", "2"]


def test_server_side_apply_managers_conflicts_and_force(kubectl: Run) -> None:
    created = ok(kubectl("apply", "--server-side", "-f", "-", stdin=HOST % "h1"))
    assert "baremetalhost.metal3.io/h1 serverside-applied" in created
    ok(
        kubectl(
            "apply",
            "--server-side",
            "-f",
            "-",
            stdin=(HOST % "h1").replace("online: true", "online: true\n  description: rack 1"),
        )
    )
    assert get(kubectl, "bmh", "h1")["spec"]["description"] == "rack 1"
    other = (HOST % "h1").replace("online: true", "online: false")
    refused = kubectl("apply", "--server-side", "--field-manager=ops", "-f", "-", stdin=other)
    assert refused.returncode != 0
    assert 'Apply failed with 1 conflict: conflict with "kubectl": .spec.online' in refused.stderr
    assert get(kubectl, "bmh", "h1")["spec"]["online"] is True
    ok(
        kubectl(
            "apply",
            "--server-side",
            "--field-manager=ops",
            "--force-conflicts",
            "-f",
            "-",
            stdin=other,
        )
    )
    host = get(kubectl, "bmh", "h1", "--show-managed-fields")
    assert host["spec"]["online"] is False
    owners = {e["manager"]: e["fieldsV1"]["f:spec"] for e in host["metadata"]["managedFields"]}
    assert "f:online" in owners["ops"] and "f:online" not in owners["kubectl"]


def test_strategic_merge_patch_on_a_host_is_415(kubectl: Run) -> None:
    ok(kubectl("apply", "-f", "-", stdin=HOST % "h1"))
    patched = kubectl("patch", "bmh", "h1", "--type=strategic", "-p", '{"spec":{"online":false}}')
    assert patched.returncode != 0
    assert (
        "the body of the request was in an unknown format - accepted media types include: "
        "application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml"
    ) in patched.stderr
    assert get(kubectl, "bmh", "h1")["spec"]["online"] is True


@pytest.mark.parametrize(
    ("create", "kind", "name"),
    [
        pytest.param(("create", "namespace", "doomed"), "namespace", "doomed", id="namespace"),
        pytest.param(
            ("create", "secret", "generic", "s", "--from-literal=a=b"), "secret", "s", id="secret"
        ),
    ],
)
def test_delete_dry_run_server_keeps_the_object(
    kubectl: Run, create: tuple[str, ...], kind: str, name: str
) -> None:
    ok(kubectl(*create))
    said = ok(kubectl("delete", kind, name, "--dry-run=server"))
    assert "(server dry run)" in said
    kept = get(kubectl, kind, name)
    assert "deletionTimestamp" not in kept["metadata"]


INVENTORY = Path(__file__).parent / "inventory.yaml"


def test_a_realistic_inventory_applies_without_upstream_crds(kubectl: Run) -> None:
    applied = ok(kubectl("apply", "-f", str(INVENTORY)))
    assert "baremetalhost.metal3.io/node-0 created" in applied
    assert "metal3datatemplate.infrastructure.cluster.x-k8s.io/legacy-v1beta1 created" in applied
    host = get(kubectl, "bmh", "node-0", "-n", "site-a")
    assert host["spec"]["rootDeviceHints"] == {"deviceName": "/dev/sda", "minSizeGigabytes": 100}
    assert host["spec"]["raid"]["softwareRAIDVolumes"][0]["rootVolume"] is False
    assert host["spec"]["firmware"] == {"sriovEnabled": True, "virtualizationEnabled": False}
    legacy = get(
        kubectl,
        "metal3datatemplates.v1beta1.infrastructure.cluster.x-k8s.io",
        "legacy-v1beta1",
        "-n",
        "site-a",
    )
    assert legacy["spec"]["networkData"]["links"]["ethernets"][0]["mtu"] == 1500
    again = ok(kubectl("apply", "-f", str(INVENTORY)))
    # As on a cluster: lists whose items got server defaults (node-0's RAID rootVolume) and
    # Secrets with stringData are "configured" again; the rest is unchanged.
    assert "baremetalhost.metal3.io/node-1 unchanged" in again
    assert "ippool.ipam.metal3.io/provisioning unchanged" in again
