"""Applying one mutation's result to the object under admission.

ApplyConfiguration: the expression's object is merged as server-side apply merges an apply
configuration (kubernetes/apiserver `pkg/admission/plugin/policy/mutating/patch/smd.go`,
`ApplyConfigurationPatcher.Patch` -> structured-merge-diff `Merge`): maps merge key by key,
recursively; scalars replace. Documented gap: lists are replaced whole (SMD merges
`x-kubernetes-list-type: map|set` lists item by item). JSONPatch: RFC 6902 on the object
(`patch/json_patch.go`), with the same all-or-nothing rule as a PATCH request. Errors carry
upstream's wording.
"""

from __future__ import annotations

from typing import Any

from dhcpless_sandbox.apiserver.patching import json_patch
from dhcpless_sandbox.apiserver.policy_model import PatchType
from dhcpless_sandbox.apiserver.status import ApiError

JSON = dict[str, Any]


class PatchError(Exception):
    """A mutation that cannot apply; its text follows `denied request:` in the refusal."""


def merge(target: JSON, patch: JSON) -> None:
    """Merge `patch` into `target` in place: maps key by key, everything else replaced."""
    for key, value in patch.items():
        if isinstance(value, dict) and isinstance(target.get(key), dict):
            merge(target[key], value)
        else:
            target[key] = value


def apply(patch_type: PatchType, result: Any, obj: JSON) -> None:
    """Change `obj` in place by one mutation's evaluated `result`."""
    if patch_type is PatchType.APPLY_CONFIGURATION:
        if not isinstance(result, dict):
            name = type(result).__name__
            raise PatchError(f"unsupported return type from ApplyConfiguration expression: {name}")
        merge(obj, result)
        return
    if not isinstance(result, list):
        raise PatchError("type mismatch: JSONPatchType.expression should evaluate to array")
    try:
        patched = json_patch(obj, result)
    except ApiError as err:
        reason = err.causes[0].message if err.causes else err.message
        raise PatchError(f"JSON Patch: {reason}") from None
    obj.clear()
    obj.update(patched)
