"""`dhcpless kn-commands` creates exactly what `kubectl kustomize` renders, and the guide shows it.

The generated script is run through `kn_model` (kn's flag handling, read from knative/client)
and compared object by object with the rendered overlay; refs are compared after Knative's own
defaulting, which fills a ref's namespace with its parent's (knative.dev/pkg
`apis/duck/v1/knative_reference.go`, `KReference.SetDefaults`).
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml

from dhcpless.tools.cli import main
from dhcpless.tools.kn_commands import NotExpressible, plan, script

from . import kn_model
from .support import ROOT, Obj

pytestmark = pytest.mark.kubectl


def _defaulted(obj: Obj) -> Obj:
    """A ref without a namespace gets its parent's, as Knative's defaulting does."""
    namespace = obj["metadata"].get("namespace")

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            ref = node.get("ref")
            if isinstance(ref, dict) and "kind" in ref and "namespace" not in ref:
                ref["namespace"] = namespace
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    copied = copy.deepcopy(obj)
    walk(copied.get("spec"))
    return copied


def _by_key(objects: list[Obj]) -> dict[tuple[str, str], Obj]:
    return {(o["kind"], o["metadata"]["name"]): _defaulted(o) for o in objects}


@pytest.mark.parametrize("overlay", ["installed", "installed_capi_ipam"])
def test_the_script_creates_what_kustomize_renders(
    request: pytest.FixtureRequest, overlay: str
) -> None:
    rendered: list[Obj] = request.getfixturevalue(overlay)
    created = kn_model.run(script(plan(rendered)))
    assert {k: _defaulted(v) for k, v in created.items()} == _by_key(rendered)


@pytest.mark.parametrize(
    ("kind", "name"),
    [
        pytest.param("Broker", "dhcpless", id="broker"),
        pytest.param("ApiServerSource", "dhcpless-ipclaims", id="claims-source"),
        pytest.param("ApiServerSource", "dhcpless-ippools", id="pools-source"),
    ],
)
def test_kn_creates_what_it_can_say_exactly(installed: list[Obj], kind: str, name: str) -> None:
    made = plan(installed)
    assert any(argv[0] == "kn" and name in argv for argv in made.kn), kind
    assert not any(o["kind"] == kind and o["metadata"]["name"] == name for o in made.kubectl)


BROKER_WITH_CONFIG = {
    "apiVersion": "eventing.knative.dev/v1",
    "kind": "Broker",
    "metadata": {"name": "b"},
    "spec": {"config": {"kind": "ConfigMap"}},
}


def _source(selector: Obj) -> Obj:
    resource = {"apiVersion": "v1", "kind": "Secret", "selector": selector}
    sink = {"ref": {"apiVersion": "eventing.knative.dev/v1", "kind": "Broker", "name": "b"}}
    return {
        "apiVersion": "sources.knative.dev/v1",
        "kind": "ApiServerSource",
        "metadata": {"name": "s", "namespace": "n"},
        "spec": {"mode": "Reference", "resources": [resource], "sink": sink},
    }


@pytest.mark.parametrize(
    ("obj", "why"),
    [
        pytest.param(
            _source({"matchExpressions": [{"key": "k", "operator": "DoesNotExist"}]}),
            "matchExpressions",
            id="match-expressions",
        ),
        pytest.param(
            {**_source({}), "spec": {**_source({})["spec"], "sink": {"uri": "http://x"}}},
            "sink",
            id="uri-sink",
        ),
        pytest.param(BROKER_WITH_CONFIG, "spec.config", id="broker-config"),
    ],
)
def test_what_kn_cannot_say_goes_to_kubectl(obj: Obj, why: str) -> None:
    made = plan([obj])
    assert (made.kn, made.kubectl) == ([], [obj])
    (reason,) = made.reasons
    assert why in reason
    assert issubclass(NotExpressible, ValueError)


def _guide_kn_lines() -> list[str]:
    text = (ROOT / "docs" / "deploy.md").read_text()
    block = text.split("<!-- kn-commands: generated -->", 1)[1].split("```", 2)[1]
    return [line for line in block.splitlines()[1:] if line.startswith(("kn ", "kubectl label"))]


def test_the_guide_shows_the_generated_commands(installed: list[Obj]) -> None:
    """The kn lines in docs/deploy.md are the generator's for the example overlay."""
    generated = script(plan(installed)).splitlines()
    expected = [line for line in generated if line.startswith(("kn ", "kubectl label"))]
    assert _guide_kn_lines() == expected


def test_cli_prints_the_script(
    installed: list[Obj], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rendered = tmp_path / "rendered.yaml"
    rendered.write_text(yaml.safe_dump_all(installed))
    assert main(["kn-commands", str(rendered)]) == 0
    assert capsys.readouterr().out == script(plan(installed))
    (tmp_path / "empty.yaml").write_text("")
    assert main(["kn-commands", str(tmp_path / "empty.yaml")]) == 2
