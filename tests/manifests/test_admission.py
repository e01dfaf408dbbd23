"""deploy/admission/: the pause policy and its pre-1.36 variant are valid and say what we claim.

Covers: both components render with the real kubectl and carry no namespace (cluster-scoped
kinds); each object validates against the Kubernetes OpenAPI of the oldest version that serves
it (kubernetes-validate knows MutatingAdmissionPolicy v1 from 1.36 and ValidatingAdmissionPolicy
v1 from 1.30; 1.35 has no v1 MutatingAdmissionPolicy, which is why the variant exists); typos
are refused; and the contract values (CREATE only, our pause, the scope label) are the ones in
`dhcpless.keys`.
"""

from __future__ import annotations

import copy
from pathlib import Path

import kubernetes_validate
import pytest

from dhcpless import keys
from dhcpless_sandbox.demo import policy as demo_policy

from .support import ROOT, Obj, kustomize, load_yaml

MUTATING = ROOT / "deploy" / "admission"
VALIDATING = MUTATING / "validating"
KEEP_PAUSE = MUTATING / "keep-pause"
POLICY_FILES = {
    MUTATING: MUTATING / "mutating-policy.yaml",
    VALIDATING: VALIDATING / "validating-policy.yaml",
    KEEP_PAUSE: KEEP_PAUSE / "keep-pause-policy.yaml",
}
INCLUDES = {MUTATING: (KEEP_PAUSE,), VALIDATING: (KEEP_PAUSE,), KEEP_PAUSE: ()}
"""The components each one includes (`components:`): the keep-pause policy comes with both."""
OLDEST = {"MutatingAdmissionPolicy": "1.36", "ValidatingAdmissionPolicy": "1.30"}


def _oldest(obj: Obj) -> str:
    return OLDEST[obj["kind"].removesuffix("Binding")]


def _errors(obj: Obj, version: str) -> list[str]:
    try:
        kubernetes_validate.validate(obj, version, strict=True)
    except kubernetes_validate.ValidationError as error:
        return [f"{'.'.join(map(str, error.path))}: {error.message}"]
    return []


def _policies() -> list[Obj]:
    return [doc for path in POLICY_FILES.values() for doc in load_yaml(path)]


@pytest.mark.kubectl
@pytest.mark.parametrize(
    "tree",
    [
        pytest.param(MUTATING, id="mutating"),
        pytest.param(VALIDATING, id="validating"),
        pytest.param(KEEP_PAUSE, id="keep-pause"),
    ],
)
def test_component_renders_without_namespace(tree: Path) -> None:
    rendered = kustomize(tree)
    files = (POLICY_FILES[tree], *(POLICY_FILES[t] for t in INCLUDES[tree]))
    expected = {(o["kind"], o["metadata"]["name"]) for f in files for o in load_yaml(f)}
    assert {(o["kind"], o["metadata"]["name"]) for o in rendered} == expected
    assert [o["metadata"].get("namespace") for o in rendered] == [None] * len(rendered)


@pytest.mark.parametrize("obj", [pytest.param(o, id=o["kind"]) for o in _policies()])
def test_valid_for_the_oldest_kubernetes_that_serves_it(obj: Obj) -> None:
    assert _errors(obj, _oldest(obj)) == []


def test_v1_mutating_policy_is_not_served_before_1_36() -> None:
    policy = load_yaml(POLICY_FILES[MUTATING])[0]
    with pytest.raises(kubernetes_validate.SchemaNotFoundError):
        kubernetes_validate.validate(policy, "1.35", strict=True)


@pytest.mark.parametrize(
    ("index", "path", "value"),
    [
        pytest.param(0, ("spec", "failurePolicy"), 3, id="failure-policy-type"),
        pytest.param(0, ("spec", "mutation"), [], id="typo-mutation"),
        pytest.param(1, ("spec", "policyNames"), "x", id="binding-typo"),
        pytest.param(2, ("spec", "validation"), [], id="vap-typo"),
        pytest.param(3, ("spec", "validationAction"), ["Deny"], id="vap-binding-typo"),
    ],
)
def test_a_broken_copy_is_refused(index: int, path: tuple[str, ...], value: object) -> None:
    obj = copy.deepcopy(_policies()[index])
    node = obj
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    assert _errors(obj, _oldest(obj)) != []


def _rules(obj: Obj) -> list[Obj]:
    rules: list[Obj] = obj["spec"]["matchConstraints"]["resourceRules"]
    return rules


@pytest.mark.parametrize("obj", [pytest.param(o, id=o["kind"]) for o in _policies()[:4:2]])
def test_create_only_on_baremetalhosts(obj: Obj) -> None:
    assert [(r["apiGroups"], r["resources"], r["operations"]) for r in _rules(obj)] == [
        ([keys.BMO_GROUP], ["baremetalhosts"], ["CREATE"])
    ]


@pytest.mark.parametrize("obj", [pytest.param(o, id=o["kind"]) for o in _policies()[1::2]])
def test_scope_is_the_documented_label(obj: Obj) -> None:
    match = obj["spec"]["matchResources"]
    assert match["namespaceSelector"]["matchLabels"] == {
        keys.PREPROVISIONING_SCOPE_LABEL: keys.SCOPE_ENABLED
    }
    [opt_out] = match["objectSelector"]["matchExpressions"]
    assert (opt_out["key"], opt_out["operator"], opt_out["values"]) == (
        keys.PREPROVISIONING_SCOPE_LABEL,
        "NotIn",
        [keys.SCOPE_DISABLED],
    )


def test_mutation_adds_exactly_our_pause() -> None:
    policy = load_yaml(POLICY_FILES[MUTATING])[0]
    [mutation] = policy["spec"]["mutations"]
    text = mutation["applyConfiguration"]["expression"]
    assert f'"{keys.PAUSED_ANNOTATION}": "{keys.PREPROVISIONING_PAUSE}"' in text


def test_refusal_says_what_to_add() -> None:
    [validation] = load_yaml(POLICY_FILES[VALIDATING])[0]["spec"]["validations"]
    assert f"{keys.PAUSED_ANNOTATION}: {keys.PREPROVISIONING_PAUSE}" in validation["message"]


def test_the_demo_installs_exactly_this_policy() -> None:
    assert demo_policy.pause_policy() == load_yaml(POLICY_FILES[MUTATING])


def test_keep_pause_refuses_only_an_update_dropping_our_pause() -> None:
    """UPDATE only, only when the host had our pause; passes when the pause stays or the host
    names its network data (our release patch sets the name and drops the pause at once)."""
    policy = load_yaml(POLICY_FILES[KEEP_PAUSE])[0]
    assert [(r["apiGroups"], r["resources"], r["operations"]) for r in _rules(policy)] == [
        ([keys.BMO_GROUP], ["baremetalhosts"], ["UPDATE"])
    ]
    [condition] = policy["spec"]["matchConditions"]
    assert f"'{keys.PAUSED_ANNOTATION}'" in condition["expression"]
    assert f"'{keys.PREPROVISIONING_PAUSE}'" in condition["expression"]
    assert condition["expression"].startswith("oldObject.metadata.?annotations")
    [validation] = policy["spec"]["validations"]
    assert "object.?spec.?preprovisioningNetworkDataName" in validation["expression"]
    assert "spec.preprovisioningNetworkDataName" in validation["message"]
