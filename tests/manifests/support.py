"""Rendering and schema plumbing shared by the manifest tests.

Manifests are rendered by the real `kubectl kustomize` (the binary next to the Python that
runs the tests), and every rendered object is checked against a schema its API owner
publishes: Knative CRDs from `../shared/crds/knative/` (the checkout's sibling, never copied),
Kubernetes kinds through `kubernetes_validate`, our own CRD against itself.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import yaml

from dhcpless import registry
from dhcpless.keys import FunctionName
from tests.support import upstream
from tests.support.kubectl import KUBECTL
from tests.support.waits import seconds

Obj = dict[str, Any]

ROOT = Path(__file__).resolve().parents[2]
SHARED_CRDS = upstream.CRDS
KUBE_VERSION = "1.33"
"""Oldest Kubernetes the manifests must be valid for (Knative 1.19+ supports it)."""

FUNCTION_PACKAGES = {f.name: f.package for f in registry.FUNCTIONS if f.name in set(FunctionName)}
"""The four functions of the DESIGN (`keys.FunctionName`) and their Python packages."""

SERVED_PACKAGES = {f.name: f.package for f in registry.FUNCTIONS}
"""Everything the image serves (FUNCTION=...): the functions plus the dead-letter sink."""


def kustomize(path: Path) -> list[Obj]:
    """Render a kustomization with the real kubectl; a broken tree fails loudly."""
    done = subprocess.run(
        [str(KUBECTL), "kustomize", str(path)],
        capture_output=True,
        text=True,
        timeout=seconds(60),
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return [doc for doc in yaml.safe_load_all(done.stdout) if doc]


def load_yaml(path: Path) -> list[Obj]:
    """Every non-empty document of a YAML file."""
    return [doc for doc in yaml.safe_load_all(path.read_text()) if doc]


def of_kind(objs: list[Obj], api_version: str, kind: str) -> list[Obj]:
    return [o for o in objs if o["apiVersion"] == api_version and o["kind"] == kind]


def named(objs: list[Obj], kind: str, name: str) -> Obj:
    """The one object of `kind` called `name`; a missing object fails the test."""
    found = [o for o in objs if o["kind"] == kind and o["metadata"]["name"] == name]
    assert len(found) == 1, f"expected one {kind}/{name}, found {len(found)}"
    return found[0]


def walk(node: object, path: str = "") -> Iterator[tuple[str, object]]:
    """Every (path, value) pair in a JSON-like tree, depth first."""
    yield path, node
    if isinstance(node, Mapping):
        for key, value in node.items():
            yield from walk(value, f"{path}.{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from walk(value, f"{path}[{index}]")
