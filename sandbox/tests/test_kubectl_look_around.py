"""kubectl looking around the sandbox: `events --for`, `get events --sort-by`, `auth can-i`
under an enforced Role, `explain`, `get bmh -o wide` and `api-resources`, each asserting what a
real server shows.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dhcpless_sandbox.apiserver import rbac
from dhcpless_sandbox.apiserver.server import SandboxServer

from .kubectl_helpers import HOST, Run, ok, runner

pytestmark = pytest.mark.kubectl


@pytest.fixture
def kubectl(sandbox: SandboxServer, tmp_path: Path) -> Run:
    return runner(sandbox, tmp_path)


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


@pytest.mark.parametrize(
    ("who", "answer"),
    [
        pytest.param((), "yes", id="admin"),
        pytest.param((f"--as={rbac.service_account('default', 'bot')}",), "no", id="bot"),
    ],
)
def test_auth_can_i_on_a_non_resource_path(
    sandbox: SandboxServer, kubectl: Run, who: tuple[str, ...], answer: str
) -> None:
    sandbox.authorize = rbac.Authorizer(ROLE)
    said = kubectl("auth", "can-i", "get", "/healthz", *who)
    assert said.stdout.strip() == answer, said.stderr
