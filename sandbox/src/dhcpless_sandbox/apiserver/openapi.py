"""OpenAPI v3 documents, one per group-version, built from the same schemas the server enforces.

kubectl apply reads them for two things: whether the server takes `fieldValidation` (the PATCH
operation of the kind must list that parameter, found by `x-kubernetes-group-version-kind`) and
the kinds' schemas. Strategic merge is deliberately not advertised, so kubectl builds its
patches from its compiled-in types (core) or as JSON merge patches (custom resources).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from dhcpless_sandbox.apiserver.core_kinds import schemas
from dhcpless_sandbox.apiserver.kinds import Registry, ResourceType

JSON = dict[str, Any]
META = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"
PATCH_TYPES = ("application/json-patch+json", "application/merge-patch+json")
WRITE_PARAMS = ("dryRun", "fieldManager", "fieldValidation")


def gv_path(group: str, version: str) -> str:
    return f"apis/{group}/{version}" if group else f"api/{version}"


def schema_name(rt: ResourceType) -> str:
    if not rt.group:
        return f"io.k8s.api.core.{rt.version}.{rt.kind}"
    if rt.group.endswith(".k8s.io"):
        return f"io.k8s.api.{rt.group.removesuffix('.k8s.io')}.{rt.version}.{rt.kind}"
    return ".".join(reversed(rt.group.split("."))) + f".{rt.version}.{rt.kind}"


def _ref(name: str) -> JSON:
    return {"$ref": f"#/components/schemas/{name}"}


def _gvk(rt: ResourceType) -> JSON:
    return {"group": rt.group, "version": rt.version, "kind": rt.kind}


def _params(*names: str) -> list[JSON]:
    return [
        {"name": n, "in": "query", "schema": {"type": "string", "uniqueItems": True}} for n in names
    ]


def _op(rt: ResourceType, action: str, body: tuple[str, ...] = ()) -> JSON:
    content = {"application/json": {"schema": _ref(schema_name(rt))}}
    op: JSON = {
        "operationId": f"{action}{rt.kind}",
        "x-kubernetes-action": action,
        "x-kubernetes-group-version-kind": _gvk(rt),
        "responses": {"200": {"description": "OK", "content": content}},
    }
    if action in ("post", "put", "patch"):
        op["parameters"] = _params(*WRITE_PARAMS, *(("force",) if action == "patch" else ()))
    if body:
        op["requestBody"] = {
            "required": True,
            "content": {t: {"schema": {"type": "object"}} for t in body},
        }
    return op


def _paths(rt: ResourceType) -> JSON:
    base = f"/{gv_path(rt.group, rt.version)}"
    scope = f"{base}/namespaces/{{namespace}}" if rt.namespaced else base
    name_param = [{"name": "name", "in": "path", "required": True, "schema": {"type": "string"}}]
    ns_param = (
        [{"name": "namespace", "in": "path", "required": True, "schema": {"type": "string"}}]
        if rt.namespaced
        else []
    )
    item = {
        "get": _op(rt, "get"),
        "put": _op(rt, "put", ("application/json",)),
        "patch": _op(rt, "patch", PATCH_TYPES),
        "delete": _op(rt, "delete"),
        "parameters": name_param + ns_param,
    }
    collection = {
        "get": _op(rt, "list"),
        "post": _op(rt, "post", ("application/json",)),
        "parameters": ns_param,
    }
    return {f"{scope}/{rt.plural}": collection, f"{scope}/{rt.plural}/{{name}}": item}


def _component(rt: ResourceType) -> JSON:
    body = dict(rt.schema or {"type": "object"})
    body["properties"] = {**body.get("properties", {}), "metadata": _ref(META)}
    return {**body, "x-kubernetes-group-version-kind": [_gvk(rt)]}


def document(registry: Registry, group: str, version: str) -> JSON | None:
    types = [t for t in registry if t.group == group and t.version == version]
    if not types:
        return None
    paths: JSON = {}
    for rt in types:
        paths |= _paths(rt)
    components = {schema_name(t): _component(t) for t in types} | {META: schemas()["ObjectMeta"]}
    return {
        "openapi": "3.0.0",
        "info": {"title": "Kubernetes", "version": "v1.37.0"},
        "paths": paths,
        "components": {"schemas": components},
    }


def digest(doc: JSON) -> str:
    return hashlib.sha512(json.dumps(doc, sort_keys=True).encode()).hexdigest()[:64].upper()


def index(registry: Registry) -> JSON:
    """`/openapi/v3`: every group-version with a content-hashed URL (kubectl caches by it)."""
    paths = {}
    for group, versions in registry.group_versions().items():
        for version in versions:
            doc = document(registry, group, version)
            path = gv_path(group, version)
            paths[path] = {"serverRelativeURL": f"/openapi/v3/{path}?hash={digest(doc or {})}"}
    return {"paths": paths}
