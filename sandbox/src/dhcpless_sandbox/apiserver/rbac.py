"""RBAC for the sandbox API server: the Roles and bindings of `deploy/` and `eventing/`, enforced.

Exists so the embedded world can prove the chain completes with exactly the permissions the
manifests grant, not with the admin client tests otherwise use. `Authorizer` is the server's
`authorize` hook: a ServiceAccount identity (`system:serviceaccount:<ns>:<name>`) is allowed a
request only when a rule of a Role or ClusterRole bound to it matches (apiGroups, resources as
`resource` or `resource/subresource`, resourceNames, verbs; `*` wildcards), and a Role or a
RoleBinding only counts in its own namespace. Every other identity (the stand-ins' admin) is not
checked, as `system:masters` is not. Refusals are kept in `denied` for tests to read.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from dhcpless_sandbox.apiserver.request import RequestInfo

JSON = dict[str, Any]
SERVICE_ACCOUNT_PREFIX = "system:serviceaccount:"
_RBAC_KINDS = frozenset({"Role", "ClusterRole", "RoleBinding", "ClusterRoleBinding"})


def service_account(namespace: str, name: str) -> str:
    """The user name Kubernetes gives a ServiceAccount's token."""
    return f"{SERVICE_ACCOUNT_PREFIX}{namespace}:{name}"


@dataclass(frozen=True)
class Rule:
    """One PolicyRule of a (Cluster)Role."""

    api_groups: frozenset[str]
    resources: frozenset[str]
    verbs: frozenset[str]
    resource_names: frozenset[str] = frozenset()

    @classmethod
    def of(cls, raw: JSON) -> Rule:
        def field(key: str) -> frozenset[str]:
            return frozenset(str(v) for v in raw.get(key) or [])

        names = field("resourceNames")
        return cls(field("apiGroups"), field("resources"), field("verbs"), names)

    def allows(self, info: RequestInfo) -> bool:
        resource = f"{info.resource}/{info.subresource}" if info.subresource else info.resource
        return (
            _has(self.verbs, info.verb)
            and _has(self.api_groups, info.api_group)
            and _has(self.resources, resource)
            and (not self.resource_names or info.name in self.resource_names)
        )


def _has(values: frozenset[str], wanted: str) -> bool:
    return "*" in values or wanted in values


@dataclass(frozen=True)
class Grant:
    """Rules given to one subject, in one namespace ("" = every namespace and cluster scope)."""

    subject: str
    namespace: str
    rules: tuple[Rule, ...]

    def allows(self, info: RequestInfo) -> bool:
        in_scope = not self.namespace or info.namespace == self.namespace
        return in_scope and any(rule.allows(info) for rule in self.rules)


class Authorizer:
    """The `SandboxServer.authorize` hook built from RBAC objects."""

    def __init__(self, objects: Iterable[JSON]) -> None:
        self.grants = tuple(_grants([o for o in objects if o.get("kind") in _RBAC_KINDS]))
        self.denied: list[RequestInfo] = []
        self._lock = threading.Lock()

    def checks(self, identity: str) -> bool:
        """Only ServiceAccounts are judged; the stand-ins' admin is not checked."""
        return identity.startswith(SERVICE_ACCOUNT_PREFIX)

    def __call__(self, info: RequestInfo) -> bool:
        if not self.checks(info.identity):
            return True
        if any(g.subject == info.identity and g.allows(info) for g in self.grants):
            return True
        with self._lock:
            self.denied.append(info)
        return False

    @property
    def subjects(self) -> frozenset[str]:
        return frozenset(g.subject for g in self.grants)


def _grants(objects: list[JSON]) -> Iterator[Grant]:
    """ServiceAccount subjects only: what `Authorizer` (the manifests' RBAC) enforces."""
    prefix = SERVICE_ACCOUNT_PREFIX
    yield from (g for g in grants_of(objects) if g.subject.startswith(prefix))


def grants_of(objects: list[JSON]) -> Iterator[Grant]:
    """Every binding's grants: ServiceAccounts by their user name, Users by name, Groups as
    `group:NAME` (so no user name can pose as a group)."""
    roles = {_key(o): tuple(Rule.of(r) for r in o.get("rules") or []) for o in objects}
    for binding in objects:
        if binding.get("kind") not in ("RoleBinding", "ClusterRoleBinding"):
            continue
        namespace = _namespace(binding)
        ref = binding.get("roleRef") or {}
        scope = namespace if ref.get("kind") == "Role" else ""
        rules = roles.get((ref.get("kind", ""), scope, ref.get("name", "")), ())
        for subject in binding.get("subjects") or []:
            who = _subject(subject, namespace)
            if who:
                yield Grant(who, namespace, rules)


def _subject(subject: JSON, namespace: str) -> str:
    kind, name = subject.get("kind"), str(subject.get("name") or "")
    if kind == "ServiceAccount":
        return service_account(subject.get("namespace") or namespace, name)
    return name if kind == "User" else f"group:{name}" if kind == "Group" else ""


def _key(obj: JSON) -> tuple[str, str, str]:
    scope = _namespace(obj) if obj["kind"] == "Role" else ""
    return obj["kind"], scope, obj.get("metadata", {}).get("name", "")


def _namespace(obj: JSON) -> str:
    """A binding's namespace; a ClusterRoleBinding has none (it grants everywhere)."""
    if obj["kind"] in ("ClusterRole", "ClusterRoleBinding"):
        return ""
    return str(obj.get("metadata", {}).get("namespace") or "")


def load(paths: Iterable[Path], namespace: str) -> list[JSON]:
    """Every RBAC object and ServiceAccount in the YAML files, placed in `namespace` unless they
    name one (what `kustomize edit set namespace` does for the example overlay)."""
    found: list[JSON] = []
    for path in paths:
        for doc in yaml.safe_load_all(Path(path).read_text()):
            if isinstance(doc, dict) and doc.get("kind") in (*_RBAC_KINDS, "ServiceAccount"):
                found.append(_placed(doc, namespace))
    return found


def _placed(doc: JSON, namespace: str) -> JSON:
    if doc["kind"] in ("ClusterRole", "ClusterRoleBinding"):
        return doc
    metadata = {"namespace": namespace, **(doc.get("metadata") or {})}
    return {**doc, "metadata": metadata}


def service_accounts(objects: Iterable[JSON]) -> list[str]:
    """The identities of the ServiceAccounts among `objects`."""
    return [
        service_account(o["metadata"]["namespace"], o["metadata"]["name"])
        for o in objects
        if o.get("kind") == "ServiceAccount"
    ]
