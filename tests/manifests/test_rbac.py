"""Least privilege: every Role grants exactly what its user needs, computed, not eyeballed.

Covers: each ApiServerSource's ServiceAccount holds exactly get/list/watch on what it
watches (what Knative's SubjectAccessReview checks); each function ServiceAccount is bound
to one Role of its own; and `rbac.compare` — the comparison the end-to-end RBAC test runs on
the sandbox's audit — reports excess and missing permissions on synthetic audits.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from dhcpless.keys import FunctionName

from .rbac import Access, compare, grants_of, source_needs, used
from .support import Obj, named, of_kind

ME = "system:serviceaccount:metal3:secret-readiness"


@dataclass(frozen=True)
class Entry:
    """An audit record as the sandbox writes one (attribute access)."""

    identity: str
    verb: str
    apiGroup: str
    resource: str
    subresource: str = ""
    namespace: str = "metal3"
    name: str = ""


def _secret_readiness_role() -> Obj:
    rules = [
        {"apiGroups": ["metal3.io"], "resources": ["baremetalhosts"], "verbs": ["get", "patch"]},
        {"apiGroups": [""], "resources": ["secrets"], "verbs": ["get"]},
    ]
    return {"kind": "Role", "metadata": {"name": "r"}, "rules": rules}


def _binding(kind: str, role_kind: str) -> Obj:
    return {
        "kind": kind,
        "metadata": {"name": "b"},
        "roleRef": {"kind": role_kind, "name": "r"},
        "subjects": [{"kind": "ServiceAccount", "name": "secret-readiness"}],
    }


GET_HOST = Entry(ME, "get", "metal3.io", "baremetalhosts", name="h")
PATCH_HOST = Entry(ME, "patch", "metal3.io", "baremetalhosts", name="h")
GET_SECRET = Entry(ME, "get", "", "secrets", name="h-preprov-networkdata")


@pytest.mark.parametrize(
    ("audit", "excess", "missing"),
    [
        pytest.param([GET_HOST, PATCH_HOST, GET_SECRET], set(), set(), id="exact"),
        pytest.param(
            [GET_HOST, GET_SECRET, GET_SECRET],
            {"patch baremetalhosts.metal3.io"},
            set(),
            id="unused-patch",
        ),
        pytest.param(
            [GET_HOST, PATCH_HOST, GET_SECRET, Entry(ME, "create", "", "events")],
            set(),
            {"create events.core"},
            id="missing-create",
        ),
        pytest.param(
            [GET_HOST, GET_SECRET, Entry(ME, "patch", "metal3.io", "baremetalhosts", "status")],
            {"patch baremetalhosts.metal3.io"},
            {"patch baremetalhosts/status.metal3.io"},
            id="subresource-is-separate",
        ),
        pytest.param(
            [
                GET_HOST,
                PATCH_HOST,
                GET_SECRET,
                Entry(ME, "list", "metal3.io", "baremetalhosts", namespace=""),
            ],
            set(),
            {"list baremetalhosts.metal3.io (all namespaces)"},
            id="cluster-wide-list",
        ),
        pytest.param(
            [GET_HOST, PATCH_HOST, GET_SECRET, Entry("someone-else", "delete", "", "secrets")],
            set(),
            set(),
            id="other-identity-ignored",
        ),
    ],
)
def test_compare_reports_both_directions(
    audit: list[Entry], excess: set[str], missing: set[str]
) -> None:
    objs = [_secret_readiness_role(), _binding("RoleBinding", "Role")]
    finding = compare(grants_of(objs, "secret-readiness"), used(audit, ME))
    assert {str(a) for a in finding.excess} == excess
    assert {str(a) for a in finding.missing} == missing
    assert finding.ok == (not excess and not missing)


def test_cluster_role_binding_grants_all_namespaces() -> None:
    role = {**_secret_readiness_role(), "kind": "ClusterRole"}
    grants = grants_of([role, _binding("ClusterRoleBinding", "ClusterRole")], "secret-readiness")
    assert Access("metal3.io", "baremetalhosts", "get", cluster_wide=True) in grants


def test_audit_records_may_be_mappings() -> None:
    record = {
        "identity": ME,
        "verb": "get",
        "apiGroup": "",
        "resource": "secrets",
        "namespace": "n",
    }
    assert used([record], ME) == {Access("", "secrets", "get")}


@pytest.mark.kubectl
@pytest.mark.parametrize(
    ("overlay", "count"),
    [
        pytest.param("installed", 4, id="example"),  # hosts, our claims, our Secrets, pools
        pytest.param("installed_capi_ipam", 5, id="with-capi-ipam"),  # + our CAPI claims
        pytest.param("installed_capm3", 5, id="with-capm3"),  # + CAPM3's Metal3Data
    ],
)
def test_sources_hold_exactly_what_knative_checks(
    request: pytest.FixtureRequest, overlay: str, count: int
) -> None:
    rendered: list[Obj] = request.getfixturevalue(overlay)
    sources = of_kind(rendered, "sources.knative.dev/v1", "ApiServerSource")
    assert len(sources) == count
    for source in sources:
        grants = grants_of(rendered, source["spec"]["serviceAccountName"])
        assert grants == source_needs(source), source["metadata"]["name"]


@pytest.mark.kubectl
@pytest.mark.parametrize("function", [pytest.param(f.value, id=f.value) for f in FunctionName])
def test_each_function_has_its_own_role(installed: list[Obj], function: str) -> None:
    bindings = [
        (b["kind"], b["roleRef"]["name"])
        for b in installed
        if b["kind"].endswith("RoleBinding")
        and any(s["name"] == function for s in b.get("subjects", []))
    ]
    cursor = [("RoleBinding", "resync-cursor")] if function == "resync" else []  # its own ns
    assert bindings == [("RoleBinding", function), *cursor]  # resync too: its namespace only
    service = named(installed, "Service", function)
    assert service["spec"]["template"]["spec"]["serviceAccountName"] == function
