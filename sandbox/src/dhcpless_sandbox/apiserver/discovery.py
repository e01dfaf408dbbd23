"""Legacy (non-aggregated) discovery documents and /version, built from the registry.

kubectl asks for aggregated discovery first; answering plain `application/json` makes it fall
back to these documents, as it does against servers that predate aggregated discovery.
"""

from __future__ import annotations

from typing import Any

from dhcpless_sandbox.apiserver.kinds import Registry, ResourceType

JSON = dict[str, Any]
VERSION: JSON = {
    "major": "1",
    "minor": "37",
    "gitVersion": "v1.37.0-sandbox",
    "gitCommit": "",
    "gitTreeState": "clean",
    "buildDate": "1970-01-01T00:00:00Z",
    "goVersion": "",
    "compiler": "python",
    "platform": "sandbox",
}


def core_versions(address: str) -> JSON:
    return {
        "kind": "APIVersions",
        "versions": ["v1"],
        "serverAddressByClientCIDRs": [{"clientCIDR": "0.0.0.0/0", "serverAddress": address}],
    }


def _group(name: str, versions: list[str]) -> JSON:
    listed = [{"groupVersion": f"{name}/{v}", "version": v} for v in versions]
    return {"name": name, "versions": listed, "preferredVersion": listed[0]}


def group_list(registry: Registry) -> JSON:
    groups = [_group(g, vs) for g, vs in registry.group_versions().items() if g]
    return {"kind": "APIGroupList", "apiVersion": "v1", "groups": groups}


def group(registry: Registry, name: str) -> JSON | None:
    versions = registry.group_versions().get(name)
    if not versions or not name:
        return None
    return {"kind": "APIGroup", "apiVersion": "v1", **_group(name, versions)}


def _entry(rt: ResourceType) -> JSON:
    out: JSON = {
        "name": rt.plural,
        "singularName": rt.singular,
        "namespaced": rt.namespaced,
        "kind": rt.kind,
        "verbs": list(rt.verbs),
    }
    if rt.short_names:
        out["shortNames"] = list(rt.short_names)
    if rt.categories:
        out["categories"] = list(rt.categories)
    return out


def _status_entry(rt: ResourceType) -> JSON:
    return {
        "name": f"{rt.plural}/status",
        "singularName": "",
        "namespaced": rt.namespaced,
        "kind": rt.kind,
        "verbs": ["get", "patch", "update"],
    }


def resource_list(registry: Registry, group_name: str, version: str) -> JSON | None:
    types = [t for t in registry if t.group == group_name and t.version == version]
    if not types:
        return None
    resources = []
    for rt in types:
        resources += [_entry(rt), *([_status_entry(rt)] if rt.status_subresource else [])]
    group_version = f"{group_name}/{version}" if group_name else version
    return {
        "kind": "APIResourceList",
        "apiVersion": "v1",
        "groupVersion": group_version,
        "resources": resources,
    }
