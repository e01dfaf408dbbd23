"""Admission policies and bindings as the sandbox evaluates them: parsed once, frozen.

Stored objects are parsed when the set of policies changes (`policies.PolicySet`), never per
request. Field names and defaults follow admissionregistration.k8s.io/v1 (kubernetes/api
`admissionregistration/v1/types.go`; defaults in kubernetes/kubernetes
`pkg/apis/admissionregistration/v1/defaults.go`: failurePolicy Fail, matchPolicy Equivalent,
empty selectors match everything, reinvocationPolicy Never).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from dhcpless_sandbox.apiserver.selectors import Op, Requirement

JSON = dict[str, Any]
GROUP = "admissionregistration.k8s.io"


class Kind(StrEnum):
    MUTATING = "MutatingAdmissionPolicy"
    VALIDATING = "ValidatingAdmissionPolicy"

    @property
    def plural(self) -> str:
        return self.value.lower().removesuffix("y") + "ies"

    @property
    def binding_plural(self) -> str:
        return self.value.lower() + "bindings"


class FailurePolicy(StrEnum):
    FAIL = "Fail"
    IGNORE = "Ignore"


class ValidationAction(StrEnum):
    DENY = "Deny"
    WARN = "Warn"
    AUDIT = "Audit"


class PatchType(StrEnum):
    APPLY_CONFIGURATION = "ApplyConfiguration"
    JSON_PATCH = "JSONPatch"


@dataclass(frozen=True)
class Rule:
    """One `NamedRuleWithOperations`; `*` is a wildcard in every list."""

    api_groups: frozenset[str]
    api_versions: frozenset[str]
    resources: frozenset[str]
    operations: frozenset[str]
    resource_names: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Match:
    """`MatchResources` of a policy (`matchConstraints`) or of a binding (`matchResources`)."""

    rules: tuple[Rule, ...] = ()
    excluded: tuple[Rule, ...] = ()
    namespace_selector: tuple[Requirement, ...] = ()
    object_selector: tuple[Requirement, ...] = ()


@dataclass(frozen=True)
class Named:
    """A named expression: a match condition, a variable, a validation or a mutation."""

    name: str
    expression: str
    message: str = ""
    message_expression: str = ""
    reason: str = ""


@dataclass(frozen=True)
class Policy:
    kind: Kind
    name: str
    failure_policy: FailurePolicy
    match: Match | None
    conditions: tuple[Named, ...] = ()
    variables: tuple[Named, ...] = ()
    checks: tuple[Named, ...] = ()
    """Validations (VAP) or mutations (MAP, `name` holds the patch type)."""


@dataclass(frozen=True)
class Binding:
    name: str
    policy: str
    match: Match | None
    actions: frozenset[ValidationAction] = frozenset({ValidationAction.DENY})


def _set(raw: JSON, key: str) -> frozenset[str]:
    return frozenset(str(v) for v in raw.get(key) or [])


def rule(raw: JSON) -> Rule:
    groups, versions = _set(raw, "apiGroups"), _set(raw, "apiVersions")
    names = _set(raw, "resourceNames")
    return Rule(groups, versions, _set(raw, "resources"), _set(raw, "operations"), names)


def selector(raw: JSON | None) -> tuple[Requirement, ...]:
    """A LabelSelector as the requirements `selectors` evaluates (ANDed)."""
    raw = raw or {}
    labels = raw.get("matchLabels") or {}
    found = [Requirement(k, Op.EQUALS, frozenset({str(v)})) for k, v in labels.items()]
    ops = {"In": Op.IN, "NotIn": Op.NOT_IN, "Exists": Op.EXISTS, "DoesNotExist": Op.DOES_NOT_EXIST}
    for expr in raw.get("matchExpressions") or []:
        found.append(Requirement(expr["key"], ops[expr["operator"]], _set(expr, "values")))
    return tuple(found)


def match(raw: JSON | None) -> Match | None:
    if raw is None:
        return None
    return Match(
        tuple(rule(r) for r in raw.get("resourceRules") or []),
        tuple(rule(r) for r in raw.get("excludeResourceRules") or []),
        selector(raw.get("namespaceSelector")),
        selector(raw.get("objectSelector")),
    )


def _named(raw: JSON) -> Named:
    keys = ("name", "expression", "message", "messageExpression", "reason")
    return Named(*(str(raw.get(k) or "") for k in keys))


def _mutation(raw: JSON) -> Named:
    patch_type = str(raw.get("patchType") or "")
    body = raw.get("applyConfiguration") or raw.get("jsonPatch") or {}
    return Named(patch_type, str(body.get("expression") or ""))


def policy(obj: JSON) -> Policy:
    spec, kind = obj.get("spec") or {}, Kind(obj["kind"])
    checks = spec.get("mutations") if kind is Kind.MUTATING else spec.get("validations")
    parse = _mutation if kind is Kind.MUTATING else _named
    return Policy(
        kind,
        obj["metadata"]["name"],
        FailurePolicy(spec.get("failurePolicy") or FailurePolicy.FAIL),
        match(spec.get("matchConstraints")),
        tuple(_named(c) for c in spec.get("matchConditions") or []),
        tuple(_named(v) for v in spec.get("variables") or []),
        tuple(parse(c) for c in checks or []),
    )


def binding(obj: JSON) -> Binding:
    spec = obj.get("spec") or {}
    actions = frozenset(ValidationAction(a) for a in spec.get("validationActions") or ["Deny"])
    name = obj["metadata"]["name"]
    policy_name = str(spec.get("policyName") or "")
    return Binding(name, policy_name, match(spec.get("matchResources")), actions)
