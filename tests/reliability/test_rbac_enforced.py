"""RBAC enforced in the sandbox: the chain completes under the manifests' Roles, nothing more.

The authorizer is checked rule by rule (table), then the embedded world runs with the Roles and
bindings of `deploy/base` and `eventing/` enforced: each function and each ApiServerSource calls
the API as its own ServiceAccount. Every host reaches `available` with no request refused, and a
request outside a function's Role gets the real server's 403.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from kubernetes import client as k8s

from dhcpless_sandbox.apiserver.rbac import Authorizer, service_account
from dhcpless_sandbox.apiserver.request import RequestInfo
from dhcpless_sandbox.demo.inventory import NAMESPACE, create, inventory
from dhcpless_sandbox.demo.report import observe
from dhcpless_sandbox.runtime.world import World
from dhcpless_sandbox.runtime.world_settings import WorldSettings
from tests.support.waits import eventually, seconds

ROOT = Path(__file__).resolve().parents[2]
RBAC_FILES = (
    *sorted((ROOT / "deploy" / "base").glob("*.yaml")),
    *sorted((ROOT / "eventing").glob("*.yaml")),
    *sorted((ROOT / "eventing" / "components" / "capi-ipam").glob("source-*.yaml")),
    *sorted((ROOT / "eventing" / "components" / "capm3").glob("source-*.yaml")),
)
SA = service_account("ns", "fn")


def _objects() -> list[dict[str, Any]]:
    role = {
        "kind": "Role",
        "metadata": {"name": "fn", "namespace": "ns"},
        "rules": [
            {
                "apiGroups": ["metal3.io"],
                "resources": ["baremetalhosts"],
                "verbs": ["get", "patch"],
            },
            {
                "apiGroups": [""],
                "resources": ["secrets"],
                "verbs": ["get"],
                "resourceNames": ["s1"],
            },
            {"apiGroups": ["ipam.metal3.io"], "resources": ["ipclaims/status"], "verbs": ["*"]},
        ],
    }
    cluster = {
        "kind": "ClusterRole",
        "metadata": {"name": "reader"},
        "rules": [{"apiGroups": ["*"], "resources": ["namespaces"], "verbs": ["list"]}],
    }
    binding = {
        "kind": "RoleBinding",
        "metadata": {"name": "fn", "namespace": "ns"},
        "roleRef": {"kind": "Role", "name": "fn"},
        "subjects": [{"kind": "ServiceAccount", "name": "fn"}],
    }
    cluster_binding = {
        "kind": "ClusterRoleBinding",
        "metadata": {"name": "reader"},
        "roleRef": {"kind": "ClusterRole", "name": "reader"},
        "subjects": [{"kind": "ServiceAccount", "name": "fn", "namespace": "ns"}],
    }
    return [role, cluster, binding, cluster_binding]


def _info(
    verb: str,
    group: str,
    resource: str,
    ns: str = "ns",
    name: str = "",
    sub: str = "",
    who: str = SA,
) -> RequestInfo:
    return RequestInfo("GET", "/", verb, True, group, "v1", resource, sub, ns, name, identity=who)


@pytest.mark.parametrize(
    ("info", "allowed"),
    [
        pytest.param(_info("patch", "metal3.io", "baremetalhosts", name="h"), True, id="role-verb"),
        pytest.param(
            _info("delete", "metal3.io", "baremetalhosts", name="h"), False, id="other-verb"
        ),
        pytest.param(
            _info("get", "metal3.io", "baremetalhosts", "other", "h"), False, id="other-ns"
        ),
        pytest.param(_info("get", "", "secrets", name="s1"), True, id="resource-name"),
        pytest.param(_info("get", "", "secrets", name="s2"), False, id="other-resource-name"),
        pytest.param(_info("list", "", "secrets"), False, id="list-with-resource-names"),
        pytest.param(
            _info("patch", "ipam.metal3.io", "ipclaims", name="c", sub="status"),
            True,
            id="subresource",
        ),
        pytest.param(
            _info("patch", "ipam.metal3.io", "ipclaims", name="c"), False, id="not-the-subresource"
        ),
        pytest.param(_info("list", "", "namespaces", ns=""), True, id="cluster-binding"),
        pytest.param(_info("list", "", "namespaces", ns="x"), True, id="cluster-binding-any-ns"),
        pytest.param(
            _info("get", "metal3.io", "baremetalhosts", who=service_account("ns", "b")),
            False,
            id="unbound-sa",
        ),
        pytest.param(_info("delete", "", "secrets", who="admin"), True, id="admin-unchecked"),
    ],
)
def test_authorizer_rules(info: RequestInfo, allowed: bool) -> None:
    authorizer = Authorizer(_objects())
    assert authorizer(info) is allowed
    assert authorizer.denied == ([] if allowed else [info])


def _available(world: World, hosts: int) -> bool:
    api = world.api_client()

    def done() -> bool:
        rows = observe(api)
        return len(rows) == hosts and all(r.state == "available" for r in rows)

    return eventually(done, 45, "every host available")


@pytest.mark.e2e
def test_chain_completes_under_enforced_roles() -> None:
    hosts = 6
    settings = WorldSettings(rbac_files=RBAC_FILES, resync_seconds=1.0, idle_seconds=1.0)
    world = World(settings)
    world.start()
    try:
        assert world.authorizer is not None
        subjects = world.authorizer.subjects
        for name in (
            "host-registration",
            "ipclaim-fulfilment",
            "secret-readiness",
            "resync",
            "dhcpless-baremetalhosts",
            "dhcpless-ipclaims",
            "dhcpless-secrets",
        ):
            assert service_account(NAMESPACE, name) in subjects
        create(world.api_client(), inventory(hosts))
        assert _available(world, hosts), observe(world.api_client())
        assert world.broker.wait_idle(seconds(10))
        assert [str(d) for d in world.authorizer.denied] == []
        used = {r.identity for r in world.sandbox.audit.records}
        assert service_account(NAMESPACE, "host-registration") in used
        assert service_account(NAMESPACE, "dhcpless-secrets") in used
        outside = world.api_client(token="host-registration-sa-token")
        with pytest.raises(k8s.exceptions.ApiException) as refused:
            k8s.CoreV1Api(outside).list_namespaced_secret(NAMESPACE)
        assert refused.value.status == 403
        who = service_account(NAMESPACE, "host-registration")
        status = json.loads(refused.value.body or "{}")
        assert status["reason"] == "Forbidden"
        assert status["message"] == (
            f'secrets is forbidden: User "{who}" cannot list resource "secrets" in API group "" '
            f'in the namespace "{NAMESPACE}"'
        )
    finally:
        world.stop()
