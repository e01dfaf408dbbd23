"""Does a policy's `matchConstraints` (or a binding's `matchResources`) select this request?

Semantics of kubernetes/apiserver `pkg/admission/plugin/policy/matching/matching.go`
(`Matcher.Matches`): the namespace selector (on the Namespace's labels; cluster-scoped objects
always pass it), the object selector (on the new or, for an update, the old object's labels),
excluded rules, then the resource rules (none: everything) with their operations, API groups
and versions, `resource/subresource` form and resourceNames (`pkg/admission/plugin/webhook/
predicates/rules/rules.go`). Documented gaps: `matchPolicy: Equivalent` matches only the
version requested (the sandbox serves each group in one version), rule `scope` is ignored.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dhcpless_sandbox.apiserver.admission_request import AdmissionRequest
from dhcpless_sandbox.apiserver.policy_model import Match, Rule
from dhcpless_sandbox.apiserver.selectors import Requirement, labels_match

JSON = dict[str, Any]


def _has(allowed: frozenset[str], value: str) -> bool:
    return "*" in allowed or value in allowed


def _resource(allowed: frozenset[str], request: AdmissionRequest) -> bool:
    plural, sub = request.rt.plural, request.subresource
    if not sub:
        return "*" in allowed or plural in allowed
    return bool({f"{plural}/{sub}", f"{plural}/*", f"*/{sub}", "*/*"} & allowed)


def rule_matches(rule: Rule, request: AdmissionRequest) -> bool:
    return (
        _has(rule.operations, request.operation.value)
        and _has(rule.api_groups, request.rt.group)
        and _has(rule.api_versions, request.rt.version)
        and _resource(rule.resources, request)
        and (not rule.resource_names or request.name in rule.resource_names)
    )


def _labels(obj: JSON | None) -> Mapping[str, str]:
    return ((obj or {}).get("metadata") or {}).get("labels") or {}


def _objects_match(selector: tuple[Requirement, ...], request: AdmissionRequest) -> bool:
    """An update matches when either its new or its old object does (object.Matcher)."""
    if labels_match(selector, _labels(request.obj)):
        return True
    return request.old is not None and labels_match(selector, _labels(request.old))


def matches(match: Match | None, request: AdmissionRequest, namespace: JSON | None) -> bool:
    """`namespace` is the request's Namespace object (None for cluster-scoped kinds)."""
    if match is None:
        return True
    if namespace is not None and not labels_match(match.namespace_selector, _labels(namespace)):
        return False
    if not _objects_match(match.object_selector, request):
        return False
    if any(rule_matches(r, request) for r in match.excluded):
        return False
    return not match.rules or any(rule_matches(r, request) for r in match.rules)
