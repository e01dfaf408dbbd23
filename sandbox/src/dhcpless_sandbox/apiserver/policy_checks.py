"""What the real server refuses when a policy or binding is written, and the sandbox's gaps.

Field errors follow kubernetes/kubernetes `pkg/apis/admissionregistration/validation/
validation.go` (`validateValidatingAdmissionPolicySpec`, `validateValidation`,
`validateMatchCondition`, `validateValidationActions`, `convertCELErrorToValidationError`): an
expression that does not compile is `<field>: Invalid value: "<expression>": compilation
failed: ERROR: <input>:...`, answered 422 with every field error at once. What the sandbox does
not evaluate is refused with a 400 that says so, never silently ignored: `paramKind`,
`paramRef` and `auditAnnotations`.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from dhcpless_sandbox.apiserver.cel import CelError, Returns, compile_expression
from dhcpless_sandbox.apiserver.status import Cause, bad_request

JSON = dict[str, Any]
UNSUPPORTED = ("paramKind", "paramRef", "auditAnnotations")


def refuse_unsupported(kind: str, spec: JSON) -> None:
    for key in UNSUPPORTED:
        if spec.get(key):
            raise bad_request(f"the sandbox does not evaluate {kind} spec.{key}; remove it")


def _required(path: str, why: str = "") -> Cause:
    return Cause("FieldValueRequired", f"Required value: {why}" if why else "Required value", path)


def _compiled(path: str, expression: str, returns: Returns) -> Iterator[Cause]:
    if not expression.strip():
        yield _required(path)
        return
    try:
        compile_expression(expression, returns)
    except CelError as err:
        yield _invalid(path, expression, err.detail)


def _invalid(path: str, value: object, why: str) -> Cause:
    """field.Invalid: `Invalid value: <value>: <why>`."""
    return Cause("FieldValueInvalid", f"Invalid value: {json.dumps(value)}: {why}", path)


def _named(path: str, items: list[JSON], returns: Returns) -> Iterator[Cause]:
    for i, item in enumerate(items):
        if not str(item.get("name") or "").strip():
            yield _required(f"{path}[{i}].name")
        yield from _compiled(f"{path}[{i}].expression", str(item.get("expression") or ""), returns)


def policy_causes(kind: str, spec: JSON) -> list[Cause]:
    """Every field error of a policy's spec (empty: acceptable)."""
    causes: list[Cause] = []
    if not (spec.get("matchConstraints") or {}).get("resourceRules"):
        causes.append(_required("spec.matchConstraints.resourceRules"))
    causes += _named("spec.matchConditions", spec.get("matchConditions") or [], Returns.BOOL)
    causes += _named("spec.variables", spec.get("variables") or [], Returns.ANY)
    causes += _mutations(spec) if kind.startswith("Mutating") else _validations(spec)
    return causes


def _mutations(spec: JSON) -> list[Cause]:
    mutations = spec.get("mutations") or []
    if not mutations:
        return [_required("spec.mutations")]
    causes: list[Cause] = []
    for i, mutation in enumerate(mutations):
        apply = mutation.get("patchType") == "ApplyConfiguration"
        key = "applyConfiguration" if apply else "jsonPatch"
        expression = str((mutation.get(key) or {}).get("expression") or "")
        causes += _compiled(f"spec.mutations[{i}].{key}.expression", expression, Returns.ANY)
    return causes


def _validations(spec: JSON) -> list[Cause]:
    validations = spec.get("validations") or []
    if not validations:
        why = "validations or auditAnnotations must contain at least one item"
        return [_required("spec.validations", why)]
    causes: list[Cause] = []
    for i, validation in enumerate(validations):
        path = f"spec.validations[{i}]"
        expression = str(validation.get("expression") or "")
        causes += _compiled(f"{path}.expression", expression, Returns.BOOL)
        if message := validation.get("messageExpression"):
            causes += _compiled(f"{path}.messageExpression", str(message), Returns.STRING)
    return causes


def binding_causes(kind: str, spec: JSON) -> list[Cause]:
    """Every field error of a binding's spec."""
    causes = [] if spec.get("policyName") else [_required("spec.policyName")]
    if kind.startswith("Validating"):
        causes += _actions(spec.get("validationActions") or [])
    return causes


BOTH = (
    "must not contain both Deny and Warn (repeating the same validation failure information "
    "in the API response and headers serves no purpose)"
)


def _actions(actions: list[str]) -> list[Cause]:
    path = "spec.validationActions"
    if not actions:
        return [_required(path, "at least one validation action is required")]
    return [_invalid(path, actions, BOTH)] if {"Deny", "Warn"} <= set(actions) else []
