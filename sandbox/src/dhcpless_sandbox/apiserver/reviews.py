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

from dhcpless_sandbox.apiserver.call import Call, Response
from dhcpless_sandbox.apiserver.kinds import PrinterColumn, ResourceType
from dhcpless_sandbox.apiserver.rbac_live import groups_of
from dhcpless_sandbox.apiserver.request import RequestInfo
from dhcpless_sandbox.apiserver.status import GroupResource, bad_request, forbidden

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
        for kind in ("SelfSubjectAccessReview", "SelfSubjectRulesReview", "SubjectAccessReview")
    ]


def is_review(rt: ResourceType) -> bool:
    return rt.group == GROUP


def serve(call: Call, authorize: Authorize) -> Response:
    """Answer a review for the caller's identity; anything but create is 405 upstream too."""
    body = call.body()
    if call.info.verb != "create" or not isinstance(body, dict):
        raise bad_request(f"a {call.rt.kind} must be created with an object body")
    spec = body.get("spec") or {}
    if call.rt.kind == "SubjectAccessReview":
        status = _access(spec, _reviewed(call, spec, authorize), authorize)
    elif call.rt.kind == "SelfSubjectAccessReview":
        status = _access(spec, call.info.identity, authorize)
    else:
        status = _rules(spec, call.info.identity, authorize)
    answer = {"apiVersion": call.rt.api_version, "kind": call.rt.kind, "metadata": {}}
    return Response(201, {**answer, "spec": spec, "status": status})


def _reviewed(call: Call, spec: JSON, authorize: Authorize) -> str:
    """SubjectAccessReview asks about `spec.user`; only a caller allowed to create it may ask
    (k8s.io/kubernetes `pkg/registry/authorization/subjectaccessreview/rest.go`: the request
    itself is authorized like any other)."""
    caller = call.info
    asking = RequestInfo(
        caller.method,
        caller.path,
        "create",
        True,
        GROUP,
        "v1",
        "subjectaccessreviews",
        identity=caller.identity,
    )
    if not authorize(asking):
        raise forbidden(
            GroupResource(GROUP, "subjectaccessreviews"),
            "",
            f'User "{caller.identity}" cannot create resource "subjectaccessreviews" in API '
            f'group "{GROUP}" at the cluster scope',
        )
    user = spec.get("user")
    if not isinstance(user, str) or not user:
        raise bad_request("spec.user: Required value")
    return user


def _access(spec: JSON, identity: str, authorize: Authorize) -> JSON:
    attributes = spec.get("resourceAttributes")
    if isinstance(spec.get("nonResourceAttributes"), dict) and attributes is None:
        # Our RBAC hooks grant resources only; whoever they do not check is not limited.
        return {"allowed": not _checked(authorize, identity)}
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
    if not _checked(authorize, identity):
        return {"resourceRules": [EVERYTHING], "nonResourceRules": [], "incomplete": False}
    if grants is None:
        return {"resourceRules": [], "nonResourceRules": [], "incomplete": True}
    namespace = spec.get("namespace") or ""
    names = groups_of(identity) | {identity}
    rules = [
        _rule(rule)
        for grant in grants
        if grant.subject in names and grant.namespace in ("", namespace)
        for rule in grant.rules
    ]
    return {"resourceRules": rules, "nonResourceRules": [], "incomplete": False}


def _checked(authorize: Authorize, identity: str) -> bool:
    """Whether the hook judges `identity` at all (`checks`; a hook without it: the
    ServiceAccounts, as `rbac.Authorizer` does)."""
    checks = getattr(authorize, "checks", None)
    if callable(checks):
        return bool(checks(identity))
    return identity.startswith("system:serviceaccount:")


def _rule(rule: Any) -> JSON:
    out: JSON = {
        "verbs": sorted(rule.verbs),
        "apiGroups": sorted(rule.api_groups),
        "resources": sorted(rule.resources),
    }
    return out | ({"resourceNames": sorted(rule.resource_names)} if rule.resource_names else {})
