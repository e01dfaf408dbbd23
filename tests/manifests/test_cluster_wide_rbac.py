"""The cluster-wide option grants nothing outside the namespaces it serves (issue 25, item 9).

The installation rendered with `deploy/cluster-wide` (tests/manifests/cluster_wide) and the
RoleBindings of two served namespaces (`deploy/cluster-wide/namespace`, as a user renders it
per namespace: tests/manifests/cluster_wide/site-a, site-b), judged by the sandbox's RBAC
authorizer (the rules of kubernetes `plugin/pkg/auth/authorizer/rbac`): no ServiceAccount of the
installation may get, list or watch a Secret anywhere but in site-a and site-b, nor cluster-wide;
the one cluster-scoped grant is resync's `list` of Namespaces; and each function and source may
still do in a served namespace what its Role says.
"""

from __future__ import annotations

import copy

import pytest

from dhcpless_sandbox.apiserver.rbac import Authorizer, service_account
from dhcpless_sandbox.apiserver.request import RequestInfo

from .support import ROOT, Obj, kustomize

HOME = "dhcpless-system"
SERVED = ("site-a", "site-b")
ELSEWHERE = (HOME, "site-c", "default", "kube-system")
HERE = ROOT / "tests" / "manifests" / "cluster_wide"


@pytest.fixture(scope="module")
def installed() -> list[Obj]:
    objs = kustomize(HERE)
    for site in SERVED:
        objs += kustomize(HERE / site)
    return objs


def _accounts(objs: list[Obj]) -> list[str]:
    return sorted(
        service_account(o["metadata"]["namespace"], o["metadata"]["name"])
        for o in objs
        if o["kind"] == "ServiceAccount"
    )


def _may(
    authorizer: Authorizer, who: str, verb: str, resource: str, namespace: str, group: str = ""
) -> bool:
    info = RequestInfo("GET", "/", verb, True, group, "", resource, "", namespace, identity=who)
    return authorizer(info)


def _secret_readers(objs: list[Obj]) -> dict[str, set[str]]:
    """Where (namespace, or "*" for cluster-wide) each ServiceAccount may read Secrets."""
    authorizer = Authorizer(objs)
    found: dict[str, set[str]] = {}
    for who in _accounts(objs):
        for namespace in (*SERVED, *ELSEWHERE, ""):
            if any(
                _may(authorizer, who, v, "secrets", namespace) for v in ("get", "list", "watch")
            ):
                found.setdefault(who, set()).add(namespace or "*")
    return found


def test_no_service_account_reads_secrets_outside_the_served_namespaces(
    installed: list[Obj],
) -> None:
    readers = _secret_readers(installed)
    assert readers, "the functions and the Secret source read Secrets in the served namespaces"
    assert all(where == set(SERVED) for where in readers.values()), readers


def test_the_one_cluster_scoped_grant_is_resyncs_namespace_list(installed: list[Obj]) -> None:
    bindings = [o for o in installed if o["kind"] == "ClusterRoleBinding"]
    assert [b["roleRef"]["name"] for b in bindings] == ["dhcpless-resync-namespaces"]
    [role] = [
        o for o in installed
        if o["kind"] == "ClusterRole" and o["metadata"]["name"] == "dhcpless-resync-namespaces"
    ]  # fmt: skip
    assert role["rules"] == [{"apiGroups": [""], "resources": ["namespaces"], "verbs": ["list"]}]
    resync = service_account(HOME, "resync")
    assert _may(Authorizer(installed), resync, "list", "namespaces", "")


def test_resyncs_cursor_stays_in_the_installations_namespace(installed: list[Obj]) -> None:
    authorizer, resync = Authorizer(installed), service_account(HOME, "resync")
    assert _may(authorizer, resync, "create", "configmaps", HOME)
    assert not any(_may(authorizer, resync, "create", "configmaps", ns) for ns in SERVED)


@pytest.mark.parametrize(
    ("who", "verb", "resource", "group"),
    [
        pytest.param("secret-readiness", "get", "secrets", "", id="secret-readiness-reads"),
        pytest.param("resync", "list", "ipclaims", "ipam.metal3.io", id="resync-lists-claims"),
        pytest.param("dhcpless-secrets", "watch", "secrets", "", id="the-secret-source-watches"),
        pytest.param(
            "dhcpless-baremetalhosts", "list", "baremetalhosts", "metal3.io", id="host-source"
        ),
    ],
)
def test_what_a_role_allows_it_still_may_in_a_served_namespace(
    installed: list[Obj], who: str, verb: str, resource: str, group: str
) -> None:
    authorizer, account = Authorizer(installed), service_account(HOME, who)
    assert all(_may(authorizer, account, verb, resource, ns, group) for ns in SERVED)
    assert not any(_may(authorizer, account, verb, resource, ns, group) for ns in ELSEWHERE)


def test_a_cluster_role_binding_would_be_caught(installed: list[Obj]) -> None:
    """The old option's way (every RoleBinding a ClusterRoleBinding) fails the check."""
    objs = copy.deepcopy(installed)
    subject = {"kind": "ServiceAccount", "name": "secret-readiness", "namespace": HOME}
    ref = {
        "apiGroup": "rbac.authorization.k8s.io",
        "kind": "ClusterRole",
        "name": "secret-readiness",
    }
    objs.append({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRoleBinding",
                 "metadata": {"name": "x"}, "roleRef": ref, "subjects": [subject]})  # fmt: skip
    readers = _secret_readers(objs)
    assert readers[service_account(HOME, "secret-readiness")] == {*SERVED, *ELSEWHERE, "*"}
