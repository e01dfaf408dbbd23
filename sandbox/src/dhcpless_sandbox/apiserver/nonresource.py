"""Paths that are not resources: /version, discovery, OpenAPI v3, health checks."""

from __future__ import annotations

from typing import Any

from dhcpless_sandbox.apiserver import discovery, openapi
from dhcpless_sandbox.apiserver.kinds import Registry
from dhcpless_sandbox.apiserver.status import path_not_found

JSON = dict[str, Any]
HEALTH = ("/healthz", "/readyz", "/livez")


def serve(registry: Registry, path: str, address: str) -> JSON | str:
    """The document at `path`, or the text `ok` for health checks; 404 otherwise."""
    parts = [p for p in path.split("/") if p]
    found: JSON | str | None = None
    if path in HEALTH:
        found = "ok"
    elif parts == ["version"]:
        found = discovery.VERSION
    elif parts == ["api"]:
        found = discovery.core_versions(address)
    elif parts == ["apis"]:
        found = discovery.group_list(registry)
    elif parts[:1] == ["api"] and len(parts) == 2:
        found = discovery.resource_list(registry, "", parts[1])
    elif parts[:1] == ["apis"] and len(parts) == 2:
        found = discovery.group(registry, parts[1])
    elif parts[:1] == ["apis"] and len(parts) == 3:
        found = discovery.resource_list(registry, parts[1], parts[2])
    elif parts[:2] == ["openapi", "v3"]:
        found = _openapi(registry, parts[2:])
    if found is None:
        raise path_not_found()
    return found


def _openapi(registry: Registry, rest: list[str]) -> JSON | None:
    if not rest:
        return openapi.index(registry)
    if rest[0] == "api" and len(rest) == 2:
        return openapi.document(registry, "", rest[1])
    if rest[0] == "apis" and len(rest) == 3:
        return openapi.document(registry, rest[1], rest[2])
    return None
