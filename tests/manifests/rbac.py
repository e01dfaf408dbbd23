"""Least privilege, computed: what a Role grants versus what an identity was seen doing.

`used` reads an API audit (the sandbox records one entry per request it serves), `granted`
expands a Role's rules, and `compare` reports both directions: a verb the code never uses
is excess privilege, a verb it uses but the Role lacks would fail (403) in a real cluster.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .support import Obj


@dataclass(frozen=True, order=True)
class Access:
    """One permission: a verb on a (sub)resource of an API group, in one namespace or in all.

    A request without a namespace (a LIST across namespaces) needs a ClusterRole bound by a
    ClusterRoleBinding; a Role can only grant the namespaced form.
    """

    api_group: str
    resource: str
    verb: str
    cluster_wide: bool = False

    def __str__(self) -> str:
        where = " (all namespaces)" if self.cluster_wide else ""
        return f"{self.verb} {self.resource}.{self.api_group or 'core'}{where}"

    @property
    def anywhere(self) -> Access:
        return Access(self.api_group, self.resource, self.verb)


@dataclass(frozen=True)
class Finding:
    excess: frozenset[Access]
    missing: frozenset[Access]

    @property
    def ok(self) -> bool:
        return not (self.excess or self.missing)


def _field(record: object, *names: str) -> str:
    """Read an audit field whether the record is a mapping or an object (any spelling)."""
    for name in names:
        value = record.get(name) if isinstance(record, Mapping) else getattr(record, name, None)
        if value is not None:
            return str(value)
    return ""


def access_of(record: object) -> Access:
    resource = _field(record, "resource")
    sub = _field(record, "subresource")
    return Access(
        _field(record, "apiGroup", "api_group"),
        f"{resource}/{sub}" if sub else resource,
        _field(record, "verb"),
        cluster_wide=not _field(record, "namespace"),
    )


def used(audit: Iterable[object], identity: str) -> frozenset[Access]:
    """Everything one identity did, as permissions."""
    return frozenset(access_of(r) for r in audit if _field(r, "identity", "user") == identity)


def granted(role: Obj, cluster_wide: bool = False) -> frozenset[Access]:
    """Every permission a Role's (or a cluster-bound ClusterRole's) rules grant."""
    scopes = (False, True) if cluster_wide else (False,)
    return frozenset(
        Access(group, resource, verb, scope)
        for rule in role.get("rules", [])
        for group in rule.get("apiGroups", [])
        for resource in rule.get("resources", [])
        for verb in rule.get("verbs", [])
        for scope in scopes
    )


def compare(grants: frozenset[Access], uses: frozenset[Access]) -> Finding:
    """Missing: a request the grants do not cover. Excess: a grant no request needed."""
    needed = {use.anywhere for use in uses}
    return Finding(
        excess=frozenset(g.anywhere for g in grants) - needed,
        missing=uses - grants,
    )


def grants_of(objs: list[Obj], service_account: str) -> frozenset[Access]:
    """Everything the (Cluster)RoleBindings among `objs` give one ServiceAccount."""
    found: set[Access] = set()
    for binding in objs:
        if binding["kind"] in ("RoleBinding", "ClusterRoleBinding") and _binds(
            binding, service_account
        ):
            ref = binding["roleRef"]
            role = next(
                o for o in objs if (o["kind"], o["metadata"]["name"]) == (ref["kind"], ref["name"])
            )
            found |= granted(role, cluster_wide=binding["kind"] == "ClusterRoleBinding")
    return frozenset(found)


def _binds(binding: Obj, service_account: str) -> bool:
    return any(
        s["kind"] == "ServiceAccount" and s["name"] == service_account
        for s in binding.get("subjects", [])
    )


def guess_plural(kind: str) -> str:
    """The resource name Knative's adapter derives from a kind (UnsafeGuessKindToResource)."""
    lower = kind.lower()
    if lower.endswith("s"):
        return lower + "es"
    if lower.endswith("y"):
        return lower[:-1] + "ies"
    return lower + "s"


def source_needs(source: Obj) -> frozenset[Access]:
    """What an ApiServerSource's ServiceAccount must hold: get, list, watch per resource."""
    return frozenset(
        Access(r["apiVersion"].rpartition("/")[0], guess_plural(r["kind"]), verb)
        for r in source["spec"]["resources"]
        for verb in ("get", "list", "watch")
    )
