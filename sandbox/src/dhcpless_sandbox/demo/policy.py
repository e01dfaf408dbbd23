"""The demo's admission policy: half of its hosts are registered without the pause annotation.

The demo installs the MutatingAdmissionPolicy and binding of `deploy/admission/` (built here
as data; a manifest test holds them equal to the YAML), labels its namespace in scope, and
creates every other host without `baremetalhost.metal3.io/paused`: the sandbox API server
adds it on create, and the create answer shows it. `PolicyNote` is what the demo then says.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from kubernetes import client

from dhcpless import keys
from dhcpless_sandbox.demo.inventory import create

JSON = dict[str, Any]
POLICY = "dhcpless-preprovisioning-pause"
_API = "admissionregistration.k8s.io/v1"
_APPLY = (
    'Object{metadata: Object.metadata{annotations: { "'
    f'{keys.PAUSED_ANNOTATION}": "{keys.PREPROVISIONING_PAUSE}"}}}}}}'
)


_NOT_PAUSED = f"!('{keys.PAUSED_ANNOTATION}' in object.metadata.?annotations.orValue({{}}))"
_NO_DATA = "object.?spec.?preprovisioningNetworkDataName.orValue('') == ''"
_PLURALS = {
    "MutatingAdmissionPolicy": "mutatingadmissionpolicies",
    "MutatingAdmissionPolicyBinding": "mutatingadmissionpolicybindings",
}


def _spec() -> JSON:
    rules = {"apiGroups": [keys.BMO_GROUP], "apiVersions": [keys.BMO_VERSION],
             "operations": ["CREATE"], "resources": ["baremetalhosts"]}  # fmt: skip
    conditions = [
        {"name": "no-network-data", "expression": _NO_DATA},
        {"name": "not-paused", "expression": _NOT_PAUSED},
    ]
    mutation = {"patchType": "ApplyConfiguration", "applyConfiguration": {"expression": _APPLY}}
    return {"failurePolicy": "Fail", "reinvocationPolicy": "Never",
            "matchConstraints": {"resourceRules": [rules]}, "matchConditions": conditions,
            "mutations": [mutation]}  # fmt: skip


def _binding_spec() -> JSON:
    scope = {keys.PREPROVISIONING_SCOPE_LABEL: keys.SCOPE_ENABLED}
    opt_out = {"key": keys.PREPROVISIONING_SCOPE_LABEL, "operator": "NotIn",
               "values": [keys.SCOPE_DISABLED]}  # fmt: skip
    match = {"namespaceSelector": {"matchLabels": scope},
             "objectSelector": {"matchExpressions": [opt_out]}}  # fmt: skip
    return {"policyName": POLICY, "matchResources": match}


def pause_policy() -> list[JSON]:
    """deploy/admission/mutating-policy.yaml, as objects."""
    kinds = (
        ("MutatingAdmissionPolicy", _spec()),
        ("MutatingAdmissionPolicyBinding", _binding_spec()),
    )
    return [
        {"apiVersion": _API, "kind": k, "metadata": {"name": POLICY}, "spec": s} for k, s in kinds
    ]


@dataclass(frozen=True)
class PolicyNote:
    """How many hosts were created without the annotation, and how many the policy paused."""

    hosts: int
    unannotated: int
    paused_on_create: int

    def line(self) -> str:
        return (
            f"policy: {self.unannotated} of {self.hosts} hosts were created without the pause "
            f"annotation; the admission policy of deploy/admission paused "
            f"{self.paused_on_create} of them on create"
        )

    def as_json(self) -> JSON:
        return asdict(self)


def create_through_policy(api: client.ApiClient, objects: list[JSON]) -> PolicyNote:
    """Install the policy, put the namespace in scope, create the inventory (odd hosts bare)."""
    custom = client.CustomObjectsApi(api)
    for obj in pause_policy():
        group, version = obj["apiVersion"].split("/")
        custom.create_cluster_custom_object(group, version, _PLURALS[obj["kind"]], obj)
    for obj in objects:
        if obj["kind"] == "Namespace":
            obj["metadata"]["labels"] = {keys.PREPROVISIONING_SCOPE_LABEL: keys.SCOPE_ENABLED}
    create(api, [o for o in objects if o["kind"] != "BareMetalHost"])
    hosts = [o for o in objects if o["kind"] == "BareMetalHost"]
    paused = sum(_create_host(custom, obj, bare=index % 2 == 1) for index, obj in enumerate(hosts))
    return PolicyNote(len(hosts), len(hosts) // 2, paused)


def _create_host(custom: client.CustomObjectsApi, obj: JSON, bare: bool) -> bool:
    """Create one host (without the annotation when `bare`); True when the policy paused it."""
    if bare:
        obj["metadata"]["annotations"].pop(keys.PAUSED_ANNOTATION)
    namespace = obj["metadata"]["namespace"]
    made = custom.create_namespaced_custom_object(
        keys.BMO_GROUP, keys.BMO_VERSION, namespace, "baremetalhosts", obj
    )
    assert isinstance(made, dict)
    stamped = (made["metadata"].get("annotations") or {}).get(keys.PAUSED_ANNOTATION)
    return bare and stamped == keys.PREPROVISIONING_PAUSE
