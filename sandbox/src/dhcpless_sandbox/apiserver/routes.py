"""Resource requests: from `RequestInfo` plus body to a response, verb by verb.

Reads are in `reads`; non-resource paths (discovery, OpenAPI, /version) in `nonresource`;
HTTP framing in `http_handler`. Everything here returns a `Response` or raises `ApiError`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from dhcpless_sandbox.apiserver import lifecycle, server_side_apply, update_rules
from dhcpless_sandbox.apiserver.api import Api
from dhcpless_sandbox.apiserver.call import Call, Response
from dhcpless_sandbox.apiserver.creating import Written
from dhcpless_sandbox.apiserver.patching import PatchType
from dhcpless_sandbox.apiserver.reads import get, list_, matcher, watch
from dhcpless_sandbox.apiserver.status import (
    Cause,
    bad_request,
    invalid,
    method_not_allowed,
    path_not_found,
)

JSON = dict[str, Any]


def _written(written: Written, code: int = 200) -> Response:
    return Response(code, written.object, written.warnings)


def create(api: Api, call: Call) -> Response:
    written = api.create(call.rt, call.namespace, call.body(), call.options())
    return _written(written, 201)


def update(api: Api, call: Call) -> Response:
    info = call.info
    return _written(
        api.update(
            call.rt, call.namespace, info.name, call.body(), call.options(), info.subresource
        )
    )


def patch(api: Api, call: Call) -> Response:
    content_type = update_rules.check_patch_type(call.media_type, call.rt.custom)
    _check_patch_options(call, content_type)
    if content_type is PatchType.APPLY:
        applied = server_side_apply.apply(
            api, call.rt, call.namespace, call.info.name, call.body(), call.options()
        )
        return _written(applied, 201 if applied.created else 200)
    return _written(
        api.patch(
            call.rt,
            call.namespace,
            call.info.name,
            content_type,
            call.body(),
            call.options(),
            call.info.subresource,
        )
    )


def _check_patch_options(call: Call, content_type: PatchType) -> None:
    """k8s.io/apimachinery `pkg/apis/meta/v1/validation` `ValidatePatchOptions`: apply needs a
    fieldManager; `force` only goes with apply."""
    cause = None
    if content_type is PatchType.APPLY and not call.q.get("fieldManager"):
        cause = Cause(
            "FieldValueRequired", "Required value: is required for apply patch", "fieldManager"
        )
    elif content_type is not PatchType.APPLY and "force" in call.q:
        why = "Forbidden: may not be specified for non-apply patch"
        cause = Cause("FieldValueForbidden", why, "force")
    if cause is not None:
        raise invalid("PatchOptions", "meta.k8s.io", "", [cause])


@dataclass(frozen=True)
class DeleteRequest:
    """DeleteOptions from the body (JSON or protobuf) merged with the query, as upstream."""

    propagation: lifecycle.Propagation
    preconditions: JSON
    dry_run: bool


def _delete_options(call: Call) -> DeleteRequest:
    """k8s.io/apiserver `pkg/endpoints/handlers/delete.go` (`DeleteResource`): the body's
    DeleteOptions, then query parameters; `dryRun` may come from either."""
    body = call.body() or {}
    if not isinstance(body, dict):
        raise bad_request("DeleteOptions must be an object")
    if body.get("orphanDependents") is True:
        body.setdefault("propagationPolicy", "Orphan")
    policy = call.q.get("propagationPolicy") or body.get("propagationPolicy")
    dry = list(body.get("dryRun") or [])
    if bad := [v for v in dry if v != "All"]:
        raise bad_request(f'dryRun: Unsupported value: "{bad[0]}": supported values: "All"')
    dry_run = call.options().dry_run or bool(dry)
    pre = body.get("preconditions") or {}
    return DeleteRequest(lifecycle.parse_propagation(policy), pre, dry_run)


def delete(api: Api, call: Call) -> Response:
    req = _delete_options(call)
    obj = lifecycle.delete(
        api,
        call.rt,
        call.namespace,
        call.info.name,
        req.propagation,
        req.preconditions,
        req.dry_run,
    )
    if call.rt.group or obj["metadata"].get("deletionTimestamp"):
        return Response(200, obj)
    details = {"name": call.info.name, "kind": call.rt.plural, "uid": obj["metadata"]["uid"]}
    return Response(
        200,
        {
            "kind": "Status",
            "apiVersion": "v1",
            "metadata": {},
            "status": "Success",
            "details": details,
        },
    )


def delete_collection(api: Api, call: Call) -> Response:
    req = _delete_options(call)
    matches, deleted = matcher(call), []
    with api.store.lock:
        for obj in api.store.listing(call.rt.storage_key, call.info.namespace or None):
            if matches(obj):
                deleted.append(
                    lifecycle.delete(
                        api,
                        call.rt,
                        obj["metadata"].get("namespace", ""),
                        obj["metadata"]["name"],
                        req.propagation,
                        {},
                        req.dry_run,
                    )
                )
    return Response(
        200,
        {
            "kind": f"{call.rt.kind}List",
            "apiVersion": call.rt.api_version,
            "metadata": {},
            "items": deleted,
        },
    )


VERBS: dict[str, Callable[[Api, Call], Response]] = {
    "get": get,
    "list": list_,
    "watch": watch,
    "create": create,
    "update": update,
    "patch": patch,
    "delete": delete,
    "deletecollection": delete_collection,
}
SUBRESOURCE_VERBS = ("get", "update", "patch")


def dispatch(api: Api, call: Call) -> Response:
    info = call.info
    if info.subresource and (info.subresource != "status" or not call.rt.status_subresource):
        raise path_not_found()
    if info.subresource and info.verb not in SUBRESOURCE_VERBS:
        raise method_not_allowed(info.method, call.rt.group_resource)
    if info.verb == "create" and info.name:
        raise method_not_allowed(info.method, call.rt.group_resource)
    handler = VERBS.get(info.verb)
    if handler is None or (info.verb == "create" and call.rt.namespaced and not info.namespace):
        raise method_not_allowed(info.method, call.rt.group_resource)
    return handler(api, call)
