"""Evaluating one policy's expressions for one request: variables, match conditions, checks.

Upstream: kubernetes/apiserver `pkg/admission/plugin/webhook/matchconditions/matcher.go`
(`Match`: any condition false -> no match, whatever errors; otherwise errors -> the failure
policy decides) and `pkg/admission/plugin/policy/validating/validator.go` (`Validate`: an
evaluation error -> the failure policy, false -> deny with `messageExpression`, `message`, or
`failed expression: <expr>`). Documented gap: variables are evaluated eagerly, in order (the
real server evaluates them lazily); one that fails is left out, so an expression using it
fails with its own "resulted in error".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dhcpless_sandbox.apiserver.admission_request import AdmissionRequest
from dhcpless_sandbox.apiserver.cel import CelError, Returns, compile_expression
from dhcpless_sandbox.apiserver.policy_model import FailurePolicy, Named, Policy

JSON = dict[str, Any]
MAX_MESSAGE = 5 * 1024
"""celconfig.MaxEvaluatedMessageExpressionSizeBytes: a longer evaluated message is dropped."""


def bindings(policy: Policy, request: AdmissionRequest, namespace: JSON | None) -> JSON:
    """The CEL variables of this request, `variables` included."""
    found: JSON = {
        "object": request.obj,
        "oldObject": request.old,
        "request": request.as_cel(),
        "namespaceObject": namespace,
        "variables": {},
    }
    for variable in policy.variables:
        try:
            value = compile_expression(variable.expression).evaluate(found)
        except CelError:
            continue
        found["variables"] = {**found["variables"], variable.name: value}
    return found


def aggregate(errors: list[str]) -> str:
    """utilerrors.NewAggregate's text: one message alone, several in brackets."""
    return errors[0] if len(errors) == 1 else "[" + ", ".join(errors) + "]"


def conditions_hold(policy: Policy, found: JSON) -> bool:
    """False when a condition is false; a CelError when only errors stand in the way (Fail)."""
    errors = []
    for condition in policy.conditions:
        try:
            value = compile_expression(condition.expression, Returns.BOOL).evaluate(found)
        except CelError as err:
            errors.append(err.detail)
            continue
        if value is False:
            return False
    if errors and policy.failure_policy is FailurePolicy.FAIL:
        raise CelError(aggregate(errors))
    return not errors


@dataclass(frozen=True)
class Denial:
    """A validation that did not hold: the message and the Status reason it carries."""

    message: str
    reason: str = "Invalid"


def check(validation: Named, found: JSON) -> Denial | None:
    """One validation: None when it holds; CelError when it cannot be evaluated."""
    if compile_expression(validation.expression, Returns.BOOL).evaluate(found) is True:
        return None
    fallback = f"failed expression: {validation.expression.strip()}"
    message = _message(validation, found) or validation.message.strip() or fallback
    return Denial(message, validation.reason or "Invalid")


def _message(validation: Named, found: JSON) -> str:
    """The evaluated messageExpression, unless it fails, is too long or spans lines."""
    if not validation.message_expression:
        return ""
    try:
        text = compile_expression(validation.message_expression, Returns.STRING).evaluate(found)
    except CelError:
        return ""
    text = str(text).strip()
    return "" if len(text) > MAX_MESSAGE or "\n" in text else text
