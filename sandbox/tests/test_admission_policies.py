"""Admission policies evaluated by the sandbox API server, driven by the real Python client.

Covers: match conditions (true, false, evaluation errors under Fail and Ignore, `request` and
`namespaceObject`); the project's own policies from deploy/admission/ (scope by
namespace and host label, CREATE only so an UPDATE never gains the pause, the pre-1.36
variant's refusal and message); the two mutation forms (ApplyConfiguration and JSONPatch with
`jsonpatch.escapeKey`); failure policies (Fail refuses with upstream's message, Ignore lets the
write through unchanged); validation actions (Deny refuses with 422 or the validation's
reason, Warn answers a warning header); messageExpression; malformed and unsupported policies
refused at write time with upstream-style field errors (422) or a clear 400, storing nothing.
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from kubernetes.client import ApiException, CoreV1Api, V1Namespace, V1ObjectMeta

from dhcpless import keys
from dhcpless_sandbox.apiserver.server import SandboxServer

from .helpers import Custom, status_of

JSON = dict[str, Any]
ROOT = Path(__file__).resolve().parents[2]
MUTATING = ROOT / "deploy" / "admission" / "mutating-policy.yaml"
VALIDATING = ROOT / "deploy" / "admission" / "validating" / "validating-policy.yaml"
GROUP, VERSION = "admissionregistration.k8s.io", "v1"
IN_SCOPE, OUT_OF_SCOPE = "served", "elsewhere"
RULES = [
    {"apiGroups": ["metal3.io"], "apiVersions": ["*"], "resources": ["baremetalhosts"],
     "operations": ["CREATE", "UPDATE"]},
]  # fmt: skip


def _plural(kind: str) -> str:
    return kind.lower().removesuffix("y") + "ies" if kind.endswith("y") else kind.lower() + "s"


class World:
    """A sandbox with an in-scope and an out-of-scope namespace, and typed helpers."""

    def __init__(self, server: SandboxServer) -> None:
        self.client: Any = server.api_client()
        self.custom, self.core = Custom(self.client), CoreV1Api(self.client)
        scope = {keys.PREPROVISIONING_SCOPE_LABEL: keys.SCOPE_ENABLED}
        for name, labels in ((IN_SCOPE, scope), (OUT_OF_SCOPE, {})):
            self.core.create_namespace(V1Namespace(metadata=V1ObjectMeta(name=name, labels=labels)))

    def apply(self, *objs: JSON) -> None:
        for obj in objs:
            plural = _plural(obj["kind"])
            self.custom.create_cluster_custom_object(GROUP, VERSION, plural, obj)

    def create_host(
        self, namespace: str, name: str = "h1", spec: JSON | None = None, **meta: Any
    ) -> JSON:
        body = {
            "apiVersion": "metal3.io/v1alpha1",
            "kind": "BareMetalHost",
            "metadata": {"name": name, **meta},
            "spec": {"online": True, **(spec or {})},
        }
        return self.custom.create_namespaced_custom_object(
            keys.BMO_GROUP, keys.BMO_VERSION, namespace, "baremetalhosts", body
        )

    def patch_host(self, namespace: str, name: str, patch: JSON) -> JSON:
        return self.custom.patch_namespaced_custom_object(
            keys.BMO_GROUP, keys.BMO_VERSION, namespace, "baremetalhosts", name, patch
        )

    def refusal(self, namespace: str, name: str = "h1", **meta: Any) -> tuple[int, JSON]:
        with pytest.raises(ApiException) as caught:
            self.create_host(namespace, name, **meta)
        body = status_of(caught.value)
        return int(caught.value.status), body


@pytest.fixture
def world(sandbox: SandboxServer) -> Iterator[World]:
    found = World(sandbox)
    yield found
    found.client.close()


def _load(path: Path) -> list[JSON]:
    return [doc for doc in yaml.safe_load_all(path.read_text()) if doc]


def _annotations(host: JSON) -> JSON:
    found: JSON = host["metadata"].get("annotations") or {}
    return found


def _policy(kind: str, spec: JSON, name: str = "p") -> list[JSON]:
    """A policy and its binding (`b`), binding every namespace."""
    binding: JSON = {"policyName": name}
    if kind == "ValidatingAdmissionPolicy":
        binding["validationActions"] = spec.pop("actions", ["Deny"])
    return [
        {"apiVersion": f"{GROUP}/{VERSION}", "kind": kind, "metadata": {"name": name},
         "spec": {"matchConstraints": {"resourceRules": RULES}, **spec}},
        {"apiVersion": f"{GROUP}/{VERSION}", "kind": kind + "Binding", "metadata": {"name": "b"},
         "spec": binding},
    ]  # fmt: skip


FOREIGN = {keys.PAUSED_ANNOTATION: keys.CAPM3_PAUSE}
OURS = {keys.PAUSED_ANNOTATION: keys.PREPROVISIONING_PAUSE}
DISABLED = {keys.PREPROVISIONING_SCOPE_LABEL: keys.SCOPE_DISABLED}
NAMED = {"preprovisioningNetworkDataName": "mine"}


@pytest.mark.parametrize(
    ("namespace", "spec", "meta", "expected"),
    [
        pytest.param(IN_SCOPE, {}, {}, keys.PREPROVISIONING_PAUSE, id="in-scope-gets-pause"),
        pytest.param(OUT_OF_SCOPE, {}, {}, None, id="namespace-out-of-scope"),
        pytest.param(IN_SCOPE, {}, {"labels": DISABLED}, None, id="host-opted-out"),
        pytest.param(IN_SCOPE, NAMED, {}, None, id="names-its-network-data"),
        pytest.param(IN_SCOPE, {}, {"annotations": FOREIGN}, keys.CAPM3_PAUSE, id="foreign-pause"),
    ],
)
def test_pause_policy_on_create(
    world: World, namespace: str, spec: JSON, meta: JSON, expected: str | None
) -> None:
    world.apply(*_load(MUTATING))
    host = world.create_host(namespace, spec=spec, **meta)
    assert _annotations(host).get(keys.PAUSED_ANNOTATION) == expected


@pytest.mark.parametrize(
    "patch",
    [
        pytest.param({"metadata": {"labels": {"x": "y"}}}, id="label-change"),
        pytest.param({"metadata": {"annotations": {keys.PAUSED_ANNOTATION: None}}}, id="release"),
        pytest.param({"spec": {"online": False}}, id="spec-change"),
    ],
)
def test_an_update_never_gains_the_pause(world: World, patch: JSON) -> None:
    world.create_host(IN_SCOPE)  # paused by the policy on create
    world.patch_host(IN_SCOPE, "h1", {"metadata": {"annotations": {keys.PAUSED_ANNOTATION: None}}})
    world.apply(*_load(MUTATING))
    host = world.patch_host(IN_SCOPE, "h1", patch)
    assert keys.PAUSED_ANNOTATION not in _annotations(host)


@pytest.mark.parametrize(
    ("meta", "refused"),
    [
        pytest.param({}, True, id="unpaused-refused"),
        pytest.param({"annotations": OURS}, False, id="paused-accepted"),
        pytest.param({"labels": DISABLED}, False, id="opted-out-accepted"),
    ],
)
def test_validating_variant_refuses_an_unpaused_create(
    world: World, meta: JSON, refused: bool
) -> None:
    world.apply(*_load(VALIDATING))
    if not refused:
        assert world.create_host(IN_SCOPE, **meta)["metadata"]["name"] == "h1"
        return
    code, body = world.refusal(IN_SCOPE, **meta)
    policy = "dhcpless-require-preprovisioning-pause"
    said = f"ValidatingAdmissionPolicy '{policy}' with binding '{policy}' denied request: "
    assert (code, body["reason"]) == (422, "Invalid")
    assert body["message"].startswith(f'baremetalhosts.metal3.io "h1" is forbidden: {said}')
    assert f"{keys.PAUSED_ANNOTATION}: {keys.PREPROVISIONING_PAUSE}" in body["message"]


ESCAPED = (
    "[JSONPatch{op: 'add', path: '/metadata/labels/' + jsonpatch.escapeKey('a/b'), value: 'c'}]"
)
APPLIED = "Object{metadata: Object.metadata{labels: {'a/b': 'c'}}}"


@pytest.mark.parametrize(
    ("patch_type", "key", "expression"),
    [
        pytest.param("ApplyConfiguration", "applyConfiguration", APPLIED, id="apply-configuration"),
        pytest.param("JSONPatch", "jsonPatch", ESCAPED, id="json-patch-escape-key"),
    ],
)
def test_mutation_forms(world: World, patch_type: str, key: str, expression: str) -> None:
    mutation = {"patchType": patch_type, key: {"expression": expression}}
    world.apply(*_policy("MutatingAdmissionPolicy", {"mutations": [mutation]}))
    host = world.create_host(IN_SCOPE, labels={"keep": "me"})
    assert host["metadata"]["labels"] == {"keep": "me", "a/b": "c"}


BROKEN = {"patchType": "ApplyConfiguration", "applyConfiguration": {"expression": "object.x"}}


@pytest.mark.parametrize(
    ("failure_policy", "refused"),
    [pytest.param("Fail", True, id="fail-refuses"), pytest.param("Ignore", False, id="ignore")],
)
def test_mutation_failure_policy(world: World, failure_policy: str, refused: bool) -> None:
    spec = {"failurePolicy": failure_policy, "mutations": [BROKEN]}
    world.apply(*_policy("MutatingAdmissionPolicy", spec))
    if not refused:
        assert world.create_host(OUT_OF_SCOPE)["metadata"].get("labels") is None
        return
    code, body = world.refusal(OUT_OF_SCOPE)
    assert (code, body["reason"]) == (403, "Invalid")
    said = "policy 'p' with binding 'b' denied request: "
    assert body["message"].startswith(f"{said}expression 'object.x' resulted in error: ")


FALSE, DENY = {"expression": "false"}, ["Deny"]
NAMED_MESSAGE = "'host ' + object.metadata.name"
EVAL_ERROR = "expression 'object.x' resulted in error"


@pytest.mark.parametrize(
    ("validation", "actions", "code", "message"),
    [
        pytest.param(FALSE, DENY, 422, "failed expression: false", id="default-message"),
        pytest.param(
            {**FALSE, "message": "no", "reason": "Forbidden"}, DENY, 403, "no", id="reason"
        ),
        pytest.param(
            {**FALSE, "messageExpression": NAMED_MESSAGE}, DENY, 422, "host h1", id="msg-expr"
        ),
        pytest.param({"expression": "object.x"}, DENY, 422, EVAL_ERROR, id="eval-error"),
        pytest.param(FALSE, ["Warn"], 201, "", id="warn-admits"),
    ],
)
def test_validation_actions_and_messages(
    world: World, validation: JSON, actions: list[str], code: int, message: str
) -> None:
    spec = {"validations": [validation], "actions": actions}
    world.apply(*_policy("ValidatingAdmissionPolicy", spec))
    if code == 201:
        assert world.create_host(OUT_OF_SCOPE)["metadata"]["name"] == "h1"
        return
    got, body = world.refusal(OUT_OF_SCOPE)
    said = "ValidatingAdmissionPolicy 'p' with binding 'b' denied request: "
    assert got == code
    subject = 'baremetalhosts.metal3.io "h1" is forbidden: '
    assert body["message"].startswith(f"{subject}{said}{message}")


def test_warn_action_answers_a_warning_header(world: World, sandbox: SandboxServer) -> None:
    spec = {"validations": [{**FALSE, "message": "careful"}], "actions": ["Warn"]}
    world.apply(*_policy("ValidatingAdmissionPolicy", spec))
    body = {"apiVersion": "metal3.io/v1alpha1", "kind": "BareMetalHost", "metadata": {"name": "h1"}}
    url = f"{sandbox.url}/apis/metal3.io/v1alpha1/namespaces/{OUT_OF_SCOPE}/baremetalhosts"
    headers = {"Content-Type": "application/json"}
    request = urllib.request.Request(url, json.dumps(body).encode(), headers, method="POST")
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.status == 201
        warning = response.headers.get("Warning", "")
    assert (
        "Validation failed for ValidatingAdmissionPolicy 'p' with binding 'b': careful" in warning
    )


VAP, MAP = "ValidatingAdmissionPolicy", "MutatingAdmissionPolicy"
SYNTAX = "object.metadata.name =="
CONDITION = {"name": "c", "expression": "object.x +"}
PARAMS = {"mutations": [], "paramKind": {"apiVersion": "v1", "kind": "ConfigMap"}}
MALFORMED = [
    pytest.param(
        VAP, {"validations": [{"expression": SYNTAX}]}, 422,
        f'spec.validations[0].expression: Invalid value: "{SYNTAX}": compilation failed: '
        "ERROR: <input>:1:24: Syntax error",
        id="syntax-error",
    ),
    pytest.param(
        VAP, {"validations": [{"expression": "'x'"}]}, 422,
        "spec.validations[0].expression: Invalid value: \"'x'\": must evaluate to bool but got "
        "string",
        id="not-bool",
    ),
    pytest.param(
        VAP, {"validations": []}, 422,
        "spec.validations: Required value: validations or auditAnnotations must contain at "
        "least one item",
        id="no-validations",
    ),
    pytest.param(
        MAP, {"matchConditions": [CONDITION], "mutations": [BROKEN]}, 422,
        'spec.matchConditions[0].expression: Invalid value: "object.x +": compilation failed:',
        id="bad-match-condition",
    ),
    pytest.param(
        MAP, PARAMS, 400, "the sandbox does not evaluate MutatingAdmissionPolicy spec.paramKind",
        id="unsupported-param-kind",
    ),
]  # fmt: skip


@pytest.mark.parametrize(("kind", "spec", "code", "text"), MALFORMED)
def test_malformed_policy_is_refused_and_not_stored(
    world: World, kind: str, spec: JSON, code: int, text: str
) -> None:
    policy = _policy(kind, spec)[0]
    with pytest.raises(ApiException) as caught:
        world.apply(policy)
    body = status_of(caught.value)
    assert caught.value.status == code
    assert text in body["message"]
    listed = world.custom.list_cluster_custom_object(GROUP, VERSION, _plural(kind))
    assert listed["items"] == []


LABEL = {"patchType": "ApplyConfiguration", "applyConfiguration": {"expression": APPLIED}}


@pytest.mark.parametrize(
    ("condition", "failure_policy", "outcome"),
    [
        pytest.param("true", "Fail", "mutated", id="true-mutates"),
        pytest.param("false", "Fail", "untouched", id="false-skips"),
        pytest.param("object.x == 1", "Fail", "refused", id="error-fail-refuses"),
        pytest.param("object.x == 1", "Ignore", "untouched", id="error-ignore-skips"),
        pytest.param("request.operation == 'UPDATE'", "Fail", "untouched", id="request-variable"),
        pytest.param(
            "namespaceObject.metadata.name == 'elsewhere'", "Fail", "mutated", id="namespace-object"
        ),
    ],
)
def test_match_conditions(world: World, condition: str, failure_policy: str, outcome: str) -> None:
    conditions = [{"name": "c", "expression": condition}]
    spec = {"failurePolicy": failure_policy, "matchConditions": conditions, "mutations": [LABEL]}
    world.apply(*_policy("MutatingAdmissionPolicy", spec))
    if outcome == "refused":
        code, body = world.refusal(OUT_OF_SCOPE)
        said = "policy 'p' with binding 'b' denied request: expression 'object.x == 1' resulted in"
        assert (code, body["message"].startswith(said)) == (403, True)
        return
    labels = world.create_host(OUT_OF_SCOPE)["metadata"].get("labels") or {}
    assert ("a/b" in labels) is (outcome == "mutated")
