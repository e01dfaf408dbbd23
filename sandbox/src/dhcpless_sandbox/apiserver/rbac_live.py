"""RBAC as a real API server does it: Roles and bindings stored in the sandbox, enforced live.

`rbac.Authorizer` enforces the manifests' Roles for ServiceAccounts only (the tests' world). A
person trying the sandbox with kubectl instead creates Roles and RoleBindings and asks
`kubectl auth can-i --as jane ...`: so the sandbox serves the four rbac.authorization.k8s.io/v1
kinds (`rbac_types`) and `LiveAuthorizer` judges every identity but the server's own admin
(what `system:masters` is upstream) by the bindings stored at the time of the request, User and
ServiceAccount subjects alike (k8s.io/kubernetes `plugin/pkg/auth/authorizer/rbac/rbac.go`
`RBACAuthorizer.Authorize`: allowed when any rule of any role bound to the subject matches;
there is no deny). Group subjects are matched for `system:authenticated` and the
ServiceAccount groups, which are the groups the sandbox's identities have.
"""

from __future__ import annotations

import threading
from typing import Any

from dhcpless_sandbox.apiserver import core_kinds
from dhcpless_sandbox.apiserver.kinds import PrinterColumn, ResourceType
from dhcpless_sandbox.apiserver.rbac import SERVICE_ACCOUNT_PREFIX, Grant, grants_of
from dhcpless_sandbox.apiserver.request import RequestInfo
from dhcpless_sandbox.apiserver.store import Store

JSON = dict[str, Any]
GROUP = "rbac.authorization.k8s.io"
ADMIN = "admin"
_OPEN: JSON = {"type": "object", "x-kubernetes-preserve-unknown-fields": True}
_LIST: JSON = {"type": "array", "items": _OPEN}
_KINDS = (
    ("Role", "roles", True, {"rules": _LIST}),
    ("ClusterRole", "clusterroles", False, {"rules": _LIST, "aggregationRule": _OPEN}),
    ("RoleBinding", "rolebindings", True, {"subjects": _LIST, "roleRef": _OPEN}),
    ("ClusterRoleBinding", "clusterrolebindings", False, {"subjects": _LIST, "roleRef": _OPEN}),
)


def rbac_types() -> list[ResourceType]:
    """The four kinds, as discovery lists them (their schemas are open below the top level)."""
    return [
        ResourceType(
            group=GROUP,
            version="v1",
            kind=kind,
            plural=plural,
            singular=kind.lower(),
            namespaced=namespaced,
            has_generation=False,
            schema=core_kinds.root_schema({"properties": props}),
            columns=(PrinterColumn("Age", "date", ".metadata.creationTimestamp"),),
        )
        for kind, plural, namespaced, props in _KINDS
    ]


class LiveAuthorizer:
    """The `SandboxServer.authorize` hook over the RBAC objects in `store`."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.denied: list[RequestInfo] = []
        self._lock = threading.Lock()

    def checks(self, identity: str) -> bool:
        """Everyone but the admin is judged by RBAC."""
        return identity != ADMIN

    @property
    def grants(self) -> tuple[Grant, ...]:
        objects = [
            o for _, plural, _, _ in _KINDS for o in self.store.listing((GROUP, plural), None)
        ]
        return tuple(grants_of(objects))

    def __call__(self, info: RequestInfo) -> bool:
        if not self.checks(info.identity):
            return True
        names = groups_of(info.identity) | {info.identity}
        if any(g.subject in names and g.allows(info) for g in self.grants):
            return True
        with self._lock:
            self.denied.append(info)
        return False


def groups_of(identity: str) -> frozenset[str]:
    """The groups the sandbox's identities are in (as `group:NAME` subjects)."""
    found = {"group:system:authenticated"}
    if identity.startswith(SERVICE_ACCOUNT_PREFIX):
        namespace = identity.removeprefix(SERVICE_ACCOUNT_PREFIX).split(":")[0]
        found |= {"group:system:serviceaccounts", f"group:system:serviceaccounts:{namespace}"}
    return frozenset(found)
