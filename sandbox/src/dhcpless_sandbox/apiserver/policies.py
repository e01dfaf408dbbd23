"""Mutating and validating admission policies, evaluated in the sandbox's admission chain.

A policy acts on a write only through a binding that names it, when both the policy's
`matchConstraints` and the binding's `matchResources` select the request (`policy_match`) and
every match condition holds (`policy_eval`). Refusals are shaped as the real server shapes them:

* Mutating (kubernetes/apiserver `pkg/admission/plugin/policy/mutating/dispatcher.go`,
  `generic/policy_dispatcher.go` `Dispatch` and `PolicyError.Error`): a condition or mutation
  that fails is an error of its policy; errors of `failurePolicy: Ignore` policies are dropped;
  any other answers 403 with reason Invalid and the message
  `policy '<p>' with binding '<b>' denied request: <error>`.
* Validating (`validating/dispatcher.go` `Dispatch`): a false validation is denied through the
  binding's `validationActions` (Deny refuses, Warn adds a response warning
  `Validation failed for ValidatingAdmissionPolicy '<p>' with binding '<b>': <message>`,
  Audit is not recorded: a documented gap); an evaluation error follows the failure policy.
  The first denial answers `<resource> "<name>" is forbidden: ValidatingAdmissionPolicy '<p>'
  with binding '<b>' denied request: <message>`, code 422 for reason Invalid (`reasonToCode`).

Policies and bindings are parsed when one of them changes, not per request. Documented gaps
besides those of `policy_checks` (refused) and `policy_match`: only CREATE and UPDATE are
admitted (DELETE and CONNECT never reach a policy), `reinvocationPolicy: IfNeeded` never re-runs
a policy, `request.userInfo` is empty, and no `status.typeChecking` is written.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

from dhcpless_sandbox.apiserver import policy_eval, policy_kinds, policy_match, policy_patch
from dhcpless_sandbox.apiserver.admission_request import AdmissionRequest
from dhcpless_sandbox.apiserver.api import Api
from dhcpless_sandbox.apiserver.cel import CelError, compile_expression
from dhcpless_sandbox.apiserver.policy_model import (
    GROUP,
    Binding,
    FailurePolicy,
    Kind,
    PatchType,
    Policy,
    ValidationAction,
    binding,
    policy,
)
from dhcpless_sandbox.apiserver.status import ApiError, Cause, forbidden
from dhcpless_sandbox.apiserver.store import Store

JSON = dict[str, Any]
Pair = tuple[Policy, Binding]
_CODES = {"Forbidden": 403, "Unauthorized": 401, "RequestEntityTooLarge": 413}


class PolicyAdmission:
    """The admission plugin: `mutate` and `validate` as `Api.plugins` calls them."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._lock = threading.Lock()
        self._pairs: dict[Kind, list[Pair]] | None = None

    def changed(self, *_: object) -> None:
        """A policy or binding was written or removed: parse them again on next use."""
        with self._lock:
            self._pairs = None

    def mutate(self, request: AdmissionRequest) -> None:
        errors: list[str] = []
        namespace = self._namespace(Kind.MUTATING, request)
        for pol, bind in self._selected(Kind.MUTATING, request, namespace):
            said = f"policy '{pol.name}' with binding '{bind.name}' denied request"
            errors += [f"{said}: {error}" for error in _mutate(pol, request, namespace)]
        if errors:
            refusal = forbidden(request.rt.group_resource, request.name, "")
            raise ApiError(403, "Invalid", errors[0], refusal.details, _causes(errors))

    def validate(self, request: AdmissionRequest) -> list[str]:
        warnings, namespace = [], self._namespace(Kind.VALIDATING, request)
        for pol, bind in self._selected(Kind.VALIDATING, request, namespace):
            for denial in _validate(pol, request, namespace):
                said = f"ValidatingAdmissionPolicy '{pol.name}' with binding '{bind.name}'"
                if ValidationAction.DENY in bind.actions:
                    _refuse(request, f"{said} denied request: {denial.message}", denial.reason)
                if ValidationAction.WARN in bind.actions:
                    warnings.append(f"Validation failed for {said}: {denial.message}")
        return warnings

    def _namespace(self, kind: Kind, request: AdmissionRequest) -> JSON | None:
        """The request's Namespace, read only when a policy of `kind` exists at all."""
        if not request.rt.namespaced or not self._load()[kind]:
            return None
        return self.store.get(("", "namespaces"), "", request.namespace)

    def _selected(self, kind: Kind, request: AdmissionRequest, ns: JSON | None) -> Iterator[Pair]:
        for pol, bind in self._load()[kind]:
            if all(policy_match.matches(m, request, ns) for m in (pol.match, bind.match)):
                yield pol, bind

    def _load(self) -> dict[Kind, list[Pair]]:
        with self._lock:
            if self._pairs is None:
                self._pairs = {kind: self._read(kind) for kind in Kind}
            return self._pairs

    def _read(self, kind: Kind) -> list[Pair]:
        """Every (policy, binding) pair, by policy name then binding name."""
        found = {p["metadata"]["name"]: policy(p) for p in self._list(kind.plural)}
        binds = sorted((binding(b) for b in self._list(kind.binding_plural)), key=lambda b: b.name)
        return sorted(
            ((found[b.policy], b) for b in binds if b.policy in found), key=lambda p: p[0].name
        )

    def _list(self, plural: str) -> list[JSON]:
        return self.store.listing((GROUP, plural), None)


def _mutate(pol: Policy, request: AdmissionRequest, namespace: JSON | None) -> list[str]:
    """Apply the policy's mutations in order; the errors that its failure policy keeps."""
    errors = []
    try:
        if not policy_eval.conditions_hold(pol, policy_eval.bindings(pol, request, namespace)):
            return []
    except CelError as err:
        errors.append(err.detail)
    for mutation in pol.checks if not errors else ():
        found = policy_eval.bindings(pol, request, namespace)
        try:
            result = compile_expression(mutation.expression).evaluate(found)
            policy_patch.apply(PatchType(mutation.name), result, request.obj)
        except (CelError, policy_patch.PatchError) as err:
            errors.append(err.detail if isinstance(err, CelError) else str(err))
    return [] if pol.failure_policy is FailurePolicy.IGNORE else errors


def _validate(
    pol: Policy, request: AdmissionRequest, namespace: JSON | None
) -> list[policy_eval.Denial]:
    """The policy's denials; evaluation errors become denials only under `Fail`."""
    fail = pol.failure_policy is FailurePolicy.FAIL
    found = policy_eval.bindings(pol, request, namespace)
    try:
        if not policy_eval.conditions_hold(pol, found):
            return []
    except CelError as err:
        return [policy_eval.Denial(err.detail)]
    denials = []
    for validation in pol.checks:
        try:
            denial = policy_eval.check(validation, found)
        except CelError as err:
            denial = policy_eval.Denial(err.detail) if fail else None
        denials += [denial] if denial else []
    return denials


def _causes(messages: list[str]) -> tuple[Cause, ...]:
    return tuple(Cause("", m) for m in messages)


def _refuse(request: AdmissionRequest, message: str, reason: str) -> None:
    refusal = forbidden(request.rt.group_resource, request.name, message)
    code = _CODES.get(reason, 422)
    raise ApiError(code, reason, refusal.message, refusal.details, _causes([message]))


def install(api: Api) -> PolicyAdmission:
    """Serve the policy kinds on `api` and evaluate them in its admission chain."""
    plugin = PolicyAdmission(api.store)
    for rt in policy_kinds.policy_types():
        api.registry.add(rt)
        api.rules[rt.storage_key] = policy_kinds.write_rule
        api.after_write[rt.storage_key] = plugin.changed
    api.removed_hooks.append(plugin.changed)
    api.plugins.installed.append(plugin)
    return plugin
