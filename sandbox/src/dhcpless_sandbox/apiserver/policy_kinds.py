"""The four admissionregistration.k8s.io/v1 policy kinds the sandbox serves, and their write rule.

Cluster-scoped, as in Kubernetes. The write rule defaults what the real server defaults
(kubernetes/kubernetes `pkg/apis/admissionregistration/v1/defaults.go`: failurePolicy Fail,
matchPolicy Equivalent, empty selectors, reinvocationPolicy Never) and refuses what its
validation refuses (`policy_checks`), so a malformed policy is never stored.
"""

from __future__ import annotations

import functools
from importlib import resources
from typing import Any

import yaml

from dhcpless_sandbox.apiserver import policy_checks
from dhcpless_sandbox.apiserver.core_kinds import AGE, root_schema
from dhcpless_sandbox.apiserver.kinds import ResourceType
from dhcpless_sandbox.apiserver.policy_model import GROUP, Kind
from dhcpless_sandbox.apiserver.status import invalid

JSON = dict[str, Any]


@functools.cache
def _schemas() -> dict[str, JSON]:
    text = resources.files(__package__).joinpath("policy_schemas.yaml").read_text()
    loaded: dict[str, JSON] = yaml.safe_load(text)
    return loaded


def _type(kind: str, plural: str) -> ResourceType:
    return ResourceType(
        group=GROUP,
        version="v1",
        kind=kind,
        plural=plural,
        singular=kind.lower(),
        namespaced=False,
        schema=root_schema(_schemas()[kind]),
        columns=(AGE,),
    )


def policy_types() -> list[ResourceType]:
    found = []
    for kind in Kind:
        found.append(_type(kind.value, kind.plural))
        found.append(_type(kind.value + "Binding", kind.binding_plural))
    return found


def _defaults(spec: JSON, binding: bool) -> None:
    match = spec.setdefault("matchResources" if binding else "matchConstraints", {})
    if match is not None:
        match.setdefault("matchPolicy", "Equivalent")
        match.setdefault("namespaceSelector", {})
        match.setdefault("objectSelector", {})
    if not binding:
        spec.setdefault("failurePolicy", "Fail")


def write_rule(new: JSON, old: JSON | None) -> None:
    """Default, then refuse a spec the real server would refuse (422) or we cannot run (400)."""
    kind, spec = new["kind"], new.setdefault("spec", {})
    binding = kind.endswith("Binding")
    policy_checks.refuse_unsupported(kind, spec)
    _defaults(spec, binding)
    if kind == Kind.MUTATING.value:
        spec.setdefault("reinvocationPolicy", "Never")
    check = policy_checks.binding_causes if binding else policy_checks.policy_causes
    if causes := check(kind, spec):
        raise invalid(kind, GROUP, new["metadata"].get("name", ""), causes)
