"""The function registry (`dhcpless.registry`) agrees with everything else that names functions.

Covers: one `functions/<package>/func.yaml` per entry and no other, naming the function and
setting FUNCTION to it; one Knative Service per entry (deploy/base for the functions, eventing
for the dead-letter sink) with the same FUNCTION; one Trigger per fed entry, passing exactly its
event types and kinds, and dead-lettering to the sink; the sandbox's Trigger filters cover the
same functions; every module builds its app; an unknown name is refused naming the known ones.
"""

from __future__ import annotations

import importlib
import inspect

import pytest
import yaml

from dhcpless import registry
from dhcpless.keys import DEAD_LETTER_FUNCTION
from dhcpless_sandbox.runtime.wiring import TRIGGER_FILTERS

from .support import ROOT, Obj, load_yaml

ENTRIES = [pytest.param(f, id=f.name) for f in registry.FUNCTIONS]
SERVING = "serving.knative.dev/v1"


def services() -> dict[str, Obj]:
    docs = [*load_yaml(ROOT / "eventing" / "dead-letter.yaml")]
    for path in sorted((ROOT / "deploy" / "base").glob("*.yaml")):
        docs += load_yaml(path)
    found = [d for d in docs if d["apiVersion"] == SERVING and d["kind"] == "Service"]
    return {d["metadata"]["name"]: d for d in found}


def triggers() -> dict[str, Obj]:
    found = [d for d in load_yaml(ROOT / "eventing" / "triggers.yaml") if d["kind"] == "Trigger"]
    return {d["spec"]["subscriber"]["ref"]["name"]: d for d in found}


def exact(filters: list[Obj], attribute: str) -> frozenset[str]:
    """The values an `exact` filter (alone or inside `any`) requires of `attribute`."""
    members = [f for top in filters for f in top.get("any", [top])]
    return frozenset(m["exact"][attribute] for m in members if attribute in m.get("exact", {}))


def env(container: Obj) -> dict[str, str]:
    entries = container.get("env") or container.get("envs") or []
    return {e["name"]: e.get("value", "") for e in entries}


def test_one_func_yaml_per_entry_and_no_other() -> None:
    packages = {p.parent.name for p in (ROOT / "functions").glob("*/func.yaml")}
    assert packages == {f.package for f in registry.FUNCTIONS}


@pytest.mark.parametrize("function", ENTRIES)
def test_func_yaml_names_the_function(function: registry.Function) -> None:
    func = yaml.safe_load((ROOT / "functions" / function.package / "func.yaml").read_text())
    assert func["name"] == function.name
    assert env(func["run"])["FUNCTION"] == function.name


def test_one_service_per_entry_and_no_other() -> None:
    assert set(services()) == set(registry.BY_NAME)


@pytest.mark.parametrize("function", ENTRIES)
def test_the_service_runs_the_function(function: registry.Function) -> None:
    container = services()[function.name]["spec"]["template"]["spec"]["containers"][0]
    assert env(container)["FUNCTION"] == function.name


@pytest.mark.parametrize("function", ENTRIES)
def test_the_trigger_passes_what_the_registry_says(function: registry.Function) -> None:
    trigger = triggers().get(function.name)
    if not function.event_types:
        assert trigger is None, f"{function.name} is fed by no Trigger"
        return
    assert trigger is not None, f"no Trigger for {function.name}"
    assert exact(trigger["spec"]["filters"], "type") == function.event_types
    assert exact(trigger["spec"]["filters"], "kind") == function.kinds
    sink = trigger["spec"]["delivery"]["deadLetterSink"]["ref"]["name"]
    assert sink == DEAD_LETTER_FUNCTION


def test_the_sandbox_wires_the_same_functions() -> None:
    fed = {f.name for f in registry.FUNCTIONS if f.event_types}
    assert set(TRIGGER_FILTERS) == fed == set(triggers())


@pytest.mark.parametrize("function", ENTRIES)
def test_every_module_builds_its_app(function: registry.Function) -> None:
    create_app = importlib.import_module(function.module).create_app
    takes = bool(inspect.signature(create_app).parameters)
    assert takes is function.takes_client
    assert function.factory == f"{function.module}:create_app()"


def test_an_unknown_name_is_refused_naming_the_known_ones() -> None:
    with pytest.raises(ValueError, match="not one of: dead-letter, host-registration"):
        registry.function("nope")
