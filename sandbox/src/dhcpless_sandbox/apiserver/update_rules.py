"""Pure rules applied between reading the stored object and writing the new one.

Which part of an object a write may change (main resource versus `/status`), which finalizers
may be added while terminating, and how each PATCH content type produces the new object.
"""

from __future__ import annotations

import copy
from typing import Any

from dhcpless_sandbox.apiserver import patching, proto_body, strategic
from dhcpless_sandbox.apiserver.kinds import ResourceType
from dhcpless_sandbox.apiserver.patching import PatchType
from dhcpless_sandbox.apiserver.status import Cause, bad_request, invalid

JSON = dict[str, Any]


def scope_to_subresource(new: JSON, old: JSON, rt: ResourceType, subresource: str) -> JSON:
    """/status writes change only status; main writes never change status (when split)."""
    if subresource == "status":
        scoped = copy.deepcopy(old)
        scoped["apiVersion"] = rt.api_version
        if "status" in new:
            scoped["status"] = new["status"]
        else:
            scoped.pop("status", None)
        return scoped
    if rt.status_subresource:
        if "status" in old:
            new["status"] = copy.deepcopy(old["status"])
        else:
            new.pop("status", None)
    return new


def check_finalizers(rt: ResourceType, new: JSON, old: JSON) -> None:
    if not old["metadata"].get("deletionTimestamp"):
        return
    added = set(new["metadata"].get("finalizers") or []) - set(
        old["metadata"].get("finalizers") or []
    )
    if added:
        message = (
            "Forbidden: no new finalizers can be added if the object is being deleted, "
            f"found new finalizers {sorted(added)}"
        )
        raise invalid(
            rt.kind,
            rt.group,
            new["metadata"]["name"],
            [Cause("FieldValueForbidden", message, "metadata.finalizers")],
        )


CUSTOM_PATCH_TYPES = (PatchType.JSON, PatchType.MERGE, PatchType.APPLY)
"""k8s.io/apiextensions-apiserver `pkg/apiserver/customresource_handler.go` (`ServeHTTP`):
custom resources take no strategic merge patch."""
BUILTIN_PATCH_TYPES = (PatchType.JSON, PatchType.MERGE, PatchType.STRATEGIC, PatchType.APPLY)
"""k8s.io/apiserver `pkg/endpoints/installer.go` (`registerResourceHandlers`, PATCH)."""


def check_patch_type(content_type: str, custom: bool) -> PatchType:
    """415 before the body is read, as `handlers.PatchResource` does (patch.go)."""
    accepted = CUSTOM_PATCH_TYPES if custom else BUILTIN_PATCH_TYPES
    if content_type not in accepted:
        raise proto_body.unsupported(tuple(accepted))
    return PatchType(content_type)


def apply_patch(content_type: str, current: JSON, patch: Any, custom: bool) -> Any:
    match check_patch_type(content_type, custom):
        case PatchType.JSON:
            return patching.json_patch(current, patch)
        case PatchType.MERGE:
            return patching.merge_patch(current, _object_patch(patch))
        case PatchType.STRATEGIC:
            return strategic.strategic_merge(current, _object_patch(patch))
        case _:
            raise proto_body.unsupported(BUILTIN_PATCH_TYPES)


def _object_patch(patch: Any) -> JSON:
    if not isinstance(patch, dict):
        raise bad_request("json: cannot unmarshal the patch into an object")
    return patch
