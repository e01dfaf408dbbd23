"""From an HTTP path and method to Kubernetes request attributes (apiserver's RequestInfo)."""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import parse_qs, urlsplit

NAMESPACE_SUBRESOURCES = ("status", "finalize")
VERBS = {"POST": "create", "PUT": "update", "PATCH": "patch"}


@dataclass(frozen=True)
class RequestInfo:
    """What an authorizer or a fault hook sees: the request in RBAC terms."""

    method: str
    path: str
    verb: str
    is_resource: bool = False
    api_group: str = ""
    api_version: str = ""
    resource: str = ""
    subresource: str = ""
    namespace: str = ""
    name: str = ""
    query: dict[str, str] = field(default_factory=dict, compare=False)
    identity: str = "admin"


def _query(raw: str) -> dict[str, str]:
    return {k: v[-1] for k, v in parse_qs(raw, keep_blank_values=True).items()}


def _resource_parts(parts: list[str]) -> tuple[str, list[str]]:
    """Split `namespaces/<ns>/...` off the parts after the group/version prefix."""
    if (
        len(parts) >= 3
        and parts[0] == "namespaces"
        and not (len(parts) == 3 and parts[2] in NAMESPACE_SUBRESOURCES)
    ):
        return parts[1], parts[2:]
    return "", parts


def parse(method: str, target: str, identity: str) -> RequestInfo:
    url = urlsplit(target)
    query = _query(url.query)
    parts = [p for p in url.path.split("/") if p]
    base = RequestInfo(method, url.path, "get", query=query, identity=identity)
    if parts[:1] == ["api"] and len(parts) >= 3:
        group, version, rest = "", parts[1], parts[2:]
    elif parts[:1] == ["apis"] and len(parts) >= 4:
        group, version, rest = parts[1], parts[2], parts[3:]
    else:
        return base
    namespace, rest = _resource_parts(rest)
    if len(rest) > 3:
        return base
    resource, name, sub = ([*rest, "", "", ""])[:3]
    verb = _verb(method, bool(name), query)
    return RequestInfo(
        method,
        url.path,
        verb,
        True,
        group,
        version,
        resource,
        sub,
        namespace,
        name,
        query,
        identity,
    )


def _verb(method: str, has_name: bool, query: dict[str, str]) -> str:
    if method == "GET":
        if query.get("watch") in ("true", "1"):
            return "watch"
        return "get" if has_name else "list"
    if method == "DELETE":
        return "delete" if has_name else "deletecollection"
    return VERBS.get(method, method.lower())
