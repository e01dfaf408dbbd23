"""SelfSubjectAccessReview and SelfSubjectRulesReview: `kubectl auth can-i` against our RBAC.

Both are create-only and never stored (k8s.io/kubernetes `pkg/registry/authorization/
selfsubjectaccessreview/rest.go` and `selfsubjectrulesreview/rest.go`, `REST.Create`): the
answer is computed from the identity making the request and returned in `status`. Every
authenticated user may create them (the `system:basic-user` ClusterRole), so the server does not
run them through the authorize hook itself. An access review asks the same hook every other
request goes through, so "yes" here means the request would be served. A rules review lists the
rules of an `rbac.Authorizer` (duck-typed: anything with `grants`); other hooks cannot be listed
and are reported `incomplete`, as the real server does for webhook authorizers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dhcpless.sandbox.apiserver.call import Call, Response
from dhcpless.sandbox.apiserver.kinds import PrinterColumn, ResourceType
from dhcpless.sandbox.apiserver.request import RequestInfo
from dhcpless.sandbox.apiserver.status import bad_request

JSON = dict[str, Any]
GROUP = "authorization.k8s.io"
Authorize = Callable[[RequestInfo], bool]
EVERYTHING: JSON = {"verbs": ["*"], "apiGroups": ["*"], "resources": ["*"]}


def review_types() -> list[ResourceType]:
    """The two review resources, as discovery lists them (create only, cluster-scoped)."""
    return [
        ResourceType(
            group=GROUP,
            version="v1",
            kind=kind,
            plural=f"{kind.lower()}s",
            singular=kind.lower(),
            namespaced=False,
            has_generation=False,
            verbs=("create",),
            columns=(PrinterColumn("Age", "date", ".metadata.creationTimestamp"),),
        )
        for kind in ("SelfSubjectAccessReview", "SelfSubjectRulesReview")
    ]


def is_review(rt: ResourceType) -> bool:
    return rt.group == GROUP


def serve(call: Call, authorize: Authorize) -> Response:
    """Answer a review for the caller's identity; anything but create is 405 upstream too."""
    body = call.body()
    if call.info.verb != "create" or not isinstance(body, dict):
        raise bad_request(f"a {call.rt.kind} must be created with an object body")
    spec = body.get("spec") or {}
    if call.rt.kind == "SelfSubjectAccessReview":
        status = _access(spec, call.info.identity, authorize)
    else:
        status = _rules(spec, call.info.identity, authorize)
    answer = {"apiVersion": call.rt.api_version, "kind": call.rt.kind, "metadata": {}}
    return Response(201, {**answer, "spec": spec, "status": status})


def _access(spec: JSON, identity: str, authorize: Authorize) -> JSON:
    attributes = spec.get("resourceAttributes")
    if isinstance(spec.get("nonResourceAttributes"), dict) and attributes is None:
        # Our RBAC hook grants ServiceAccounts resources only; everyone else is unchecked.
        return {"allowed": not identity.startswith("system:serviceaccount:")}
    if not isinstance(attributes, dict):
        raise bad_request("spec.resourceAttributes: Required value")
    info = RequestInfo(
        "",
        "",
        attributes.get("verb") or "",
        True,
        attributes.get("group") or "",
        attributes.get("version") or "",
        attributes.get("resource") or "",
        attributes.get("subresource") or "",
        attributes.get("namespace") or "",
        attributes.get("name") or "",
        identity=identity,
    )
    allowed = authorize(info)
    return {"allowed": allowed}


def _rules(spec: JSON, identity: str, authorize: Authorize) -> JSON:
    grants = getattr(authorize, "grants", None)
    if not identity.startswith("system:serviceaccount:"):
        return {"resourceRules": [EVERYTHING], "nonResourceRules": [], "incomplete": False}
    if grants is None:
        return {"resourceRules": [], "nonResourceRules": [], "incomplete": True}
    namespace = spec.get("namespace") or ""
    rules = [
        _rule(rule)
        for grant in grants
        if grant.subject == identity and grant.namespace in ("", namespace)
        for rule in grant.rules
    ]
    return {"resourceRules": rules, "nonResourceRules": [], "incomplete": False}


def _rule(rule: Any) -> JSON:
    out: JSON = {
        "verbs": sorted(rule.verbs),
        "apiGroups": sorted(rule.api_groups),
        "resources": sorted(rule.resources),
    }
    return out | ({"resourceNames": sorted(rule.resource_names)} if rule.resource_names else {})
