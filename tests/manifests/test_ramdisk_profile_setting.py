"""`DHCPLESS_RAMDISK_PROFILE` as deployed: one kustomize setting, the same on every function.

deploy/base gives each of the four Services the default (`glean-el9`); the example overlay
declares the setting in a local ConfigMap `dhcpless-settings` that the component
`deploy/components/ramdisk-profile` copies into every Service (and that is never applied
itself). A copy of the overlay with another value changes all four Services and nothing else,
and each Service's environment is one its function starts with.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import yaml

from dhcpless.keys import DEFAULT_PROFILE, RAMDISK_PROFILE_ENV, FunctionName, RamdiskProfile
from dhcpless.settings import Settings

from .support import ROOT, Obj, kustomize, of_kind

EXAMPLE = ROOT / "deploy" / "overlays" / "example"
FUNCTIONS = {f.value for f in FunctionName}


def _profiles(objs: list[Obj]) -> dict[str, str | None]:
    """Function Service name -> its container's DHCPLESS_RAMDISK_PROFILE (None: not set)."""
    found: dict[str, str | None] = {}
    for service in of_kind(objs, "serving.knative.dev/v1", "Service"):
        (container,) = service["spec"]["template"]["spec"]["containers"]
        env = {e["name"]: e.get("value") for e in container.get("env", [])}
        found[service["metadata"]["name"]] = env.get(RAMDISK_PROFILE_ENV)
    return found


def _declared(kustomization: Path) -> str:
    """The value the overlay's `dhcpless-settings` generator declares."""
    spec = yaml.safe_load(kustomization.read_text())
    (generator,) = [g for g in spec["configMapGenerator"] if g["name"] == "dhcpless-settings"]
    (literal,) = [x for x in generator["literals"] if x.startswith(RAMDISK_PROFILE_ENV + "=")]
    return str(literal.split("=", 1)[1])


def test_the_base_gives_every_function_the_default() -> None:
    profiles = _profiles(kustomize(ROOT / "deploy" / "base"))
    assert profiles == dict.fromkeys(FUNCTIONS, DEFAULT_PROFILE.value)


def test_the_example_overlay_sets_it_once_and_applies_no_configmap(installed: list[Obj]) -> None:
    declared = _declared(EXAMPLE / "kustomization.yaml")
    assert declared in {p.value for p in RamdiskProfile}
    profiles = _profiles(installed)
    assert {n: profiles[n] for n in FUNCTIONS} == dict.fromkeys(FUNCTIONS, declared)
    assert profiles["dead-letter"] is None  # the sink renders nothing
    names = [c["metadata"]["name"] for c in of_kind(installed, "v1", "ConfigMap")]
    assert "dhcpless-settings" not in names


@pytest.mark.parametrize(
    "profile", [pytest.param(p, id=p.value) for p in RamdiskProfile if p is not DEFAULT_PROFILE]
)
def test_a_copied_overlay_sets_every_function(tmp_path: Path, profile: RamdiskProfile) -> None:
    """What the guide says to do: copy the example overlay, change the one literal."""
    text = (EXAMPLE / "kustomization.yaml").read_text()
    spec = yaml.safe_load(text)
    here = tmp_path.resolve()  # kustomize takes relative paths only

    def moved(path: str) -> str:
        return os.path.relpath((EXAMPLE / path).resolve(), here)

    spec["resources"] = [moved(r) for r in spec["resources"]]
    spec["components"] = [moved(c) for c in spec["components"]]
    (generator,) = spec["configMapGenerator"]
    generator["literals"] = [f"{RAMDISK_PROFILE_ENV}={profile.value}"]
    (tmp_path / "kustomization.yaml").write_text(yaml.safe_dump(spec))
    rendered = kustomize(tmp_path)
    profiles = _profiles(rendered)
    assert {n: profiles[n] for n in FUNCTIONS} == dict.fromkeys(FUNCTIONS, profile.value)
    for service in of_kind(rendered, "serving.knative.dev/v1", "Service"):
        (container,) = service["spec"]["template"]["spec"]["containers"]
        env = {e["name"]: e["value"] for e in container.get("env", []) if "value" in e}
        if service["metadata"]["name"] in FUNCTIONS:  # the function would start with it
            assert Settings.from_environment(env).ramdisk_profile is profile
