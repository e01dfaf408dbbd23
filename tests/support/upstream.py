"""Where the upstream reference data is: the `shared` folder beside the checkout.

Upstream CRDs (`../shared/crds/`) and schemas (`../shared/schemas/`) are read at run time and
never copied into the project. Every test finds them through this module, so the location and
the message when it is missing are written once.
"""

from __future__ import annotations

import copy
import functools
from pathlib import Path
from typing import Any

import yaml

REPO_ROOT = Path(__file__).resolve().parents[2]
SHARED = REPO_ROOT.parent / "shared"
CRDS = SHARED / "crds"
"""Upstream CRDs by project: `metal3/`, `knative/`, ..."""
METAL3_CRDS = CRDS / "metal3"
SCHEMAS = SHARED / "schemas"


def required(path: Path) -> Path:
    """`path`, or a clear failure naming what is missing (a missing `../shared` is a broken
    checkout, never a reason to skip: CI always has it)."""
    if not path.exists():
        raise AssertionError(
            f"upstream reference data not found at {path}: the checkout needs ../shared beside it"
        )
    return path


@functools.cache
def _versions(path: Path) -> dict[str, Any]:
    crd = yaml.load(required(path).read_text(), getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    return {v["name"]: v for v in crd["spec"]["versions"]}


def versions(path: Path, *, served_only: bool = False) -> dict[str, Any]:
    """A CRD file's versions by name (a copy the caller may change). The file is parsed once
    per test process, with the C loader when there is one: upstream CRDs are large, and
    several tests read the same file."""
    found = _versions(path)
    return {n: copy.deepcopy(v) for n, v in found.items() if v.get("served") or not served_only}


def crd_schema(path: Path, version: str) -> dict[str, Any]:
    """The openAPIV3Schema of one version of a CRD file (a copy the caller may change)."""
    schema: dict[str, Any] = copy.deepcopy(_versions(path)[version]["schema"]["openAPIV3Schema"])
    return schema
