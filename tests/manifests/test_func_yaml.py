"""Each function's func.yaml is valid for Knative Functions and matches its Service.

Covers: the JSON schema published by knative/func accepts every func.yaml; func.yaml and the
kustomize Service agree on every shared field; and a table of mutated func.yaml copies shows
each disagreement (concurrency, scale, ServiceAccount, ...) is reported.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import jsonschema
import pytest
import yaml

from dhcpless.keys import DEAD_LETTER_FUNCTION, FunctionName

from .func_consistency import func_yaml_mismatches
from .support import FUNCTION_PACKAGES, ROOT, SERVED_PACKAGES, SHARED_CRDS, Obj, load_yaml, named

FUNCTIONS = [pytest.param(name, id=name) for name in SERVED_PACKAGES]


def _func_yaml(function: str) -> Obj:
    path = ROOT / "functions" / SERVED_PACKAGES[function] / "func.yaml"
    loaded: Obj = yaml.safe_load(path.read_text())
    return loaded


def _service(function: str) -> Obj:
    """The function's Knative Service; the dead-letter sink's lives with the eventing."""
    folder = ROOT / ("eventing" if function == DEAD_LETTER_FUNCTION else "deploy/base")
    return named(load_yaml(folder / f"{function}.yaml"), "Service", function)


def test_every_function_has_a_package_name() -> None:
    assert set(FUNCTION_PACKAGES) == {name.value for name in FunctionName}


@pytest.mark.parametrize("function", FUNCTIONS)
def test_func_yaml_matches_func_schema(function: str) -> None:
    schema = json.loads((SHARED_CRDS / "knative" / "func_yaml-schema.json").read_text())
    # `created` is a YAML timestamp; func writes and reads it as RFC 3339 text.
    document = json.loads(json.dumps(_func_yaml(function), default=str))
    validator = jsonschema.Draft4Validator(schema)
    assert [e.message for e in validator.iter_errors(document)] == []


@pytest.mark.parametrize("function", FUNCTIONS)
def test_func_yaml_agrees_with_service(function: str) -> None:
    assert func_yaml_mismatches(_func_yaml(function), _service(function)) == []


def _deploy(func: Obj) -> Any:
    return func["deploy"]


MUTATIONS: list[Any] = [
    pytest.param(
        lambda f: _deploy(f)["options"]["resources"]["limits"].update(concurrency=8),
        "limits.concurrency",
        id="concurrency",
    ),
    pytest.param(
        lambda f: _deploy(f)["options"]["scale"].update(max=50), "scale.max", id="max-scale"
    ),
    pytest.param(
        lambda f: _deploy(f)["options"]["scale"].update(min=1), "scale.min", id="min-scale"
    ),
    pytest.param(
        lambda f: _deploy(f).update(serviceAccountName="default"), "serviceAccountName", id="sa"
    ),
    pytest.param(
        lambda f: _deploy(f)["options"]["resources"]["requests"].update(cpu="1"),
        "requests",
        id="cpu",
    ),
    pytest.param(
        lambda f: _deploy(f)["options"]["resources"]["limits"].update(memory="1Gi"),
        "limits",
        id="memory",
    ),
    pytest.param(
        lambda f: _deploy(f)["healthEndpoints"].update(liveness="/healthz"),
        "healthEndpoints",
        id="probe",
    ),
    pytest.param(lambda f: _deploy(f).update(labels=[]), "visibility", id="public"),
    pytest.param(lambda f: f["run"]["envs"][0].update(value="resync"), "envs", id="function-env"),
    pytest.param(lambda f: f.update(name="other"), "name", id="name"),
]


@pytest.mark.parametrize(("mutate", "field"), MUTATIONS)
def test_disagreement_is_reported(mutate: Callable[[Obj], None], field: str) -> None:
    func = copy.deepcopy(_func_yaml("host-registration"))
    mutate(func)
    problems = func_yaml_mismatches(func, _service("host-registration"))
    assert [p.split(":")[0] for p in problems] == [field]
