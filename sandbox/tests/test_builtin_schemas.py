"""Our own Metal3 CRDs against upstream's: every field upstream serves exists in ours.

For each upstream CRD in `../shared/crds/metal3/` and each of its served versions, every field
path (objects, list items `[]`, map values `{}`) below `spec` and `status` must exist in our
schema of the same version with the same type, so that a real inventory validates here as it
does on a cluster. Printer columns must match upstream's names, paths and priorities too.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import REPO_ROOT
from tests.support import upstream

JSON = dict[str, Any]
OURS = REPO_ROOT / "sandbox" / "src" / "dhcpless_sandbox" / "crds"
KINDS = (
    "metal3.io_baremetalhosts.yaml",
    "ipam.metal3.io_ippools.yaml",
    "ipam.metal3.io_ipclaims.yaml",
    "ipam.metal3.io_ipaddresses.yaml",
    "infrastructure.cluster.x-k8s.io_metal3machinetemplates.yaml",
    "infrastructure.cluster.x-k8s.io_metal3datatemplates.yaml",
)


def walk(schema: JSON, path: str = "") -> Iterator[tuple[str, str | None]]:
    yield path, schema.get("type")
    for key, child in (schema.get("properties") or {}).items():
        yield from walk(child, f"{path}.{key}")
    if isinstance(schema.get("items"), dict):
        yield from walk(schema["items"], f"{path}[]")
    if isinstance(schema.get("additionalProperties"), dict):
        yield from walk(schema["additionalProperties"], f"{path}{{}}")


def served(path: Path) -> dict[str, JSON]:
    return upstream.versions(path, served_only=True)


def fields(version: JSON) -> dict[str, str | None]:
    schema = version["schema"]["openAPIV3Schema"]
    return {p: t for p, t in walk(schema) if p.startswith((".spec", ".status"))}


def cases(shared: Path) -> Iterator[Any]:
    for name in KINDS:
        for version in served(shared / "metal3" / name):
            yield pytest.param(name, version, id=f"{name.split('_')[1]}-{version}")


SHARED = upstream.CRDS


@pytest.mark.parametrize(("name", "version"), list(cases(SHARED)))
def test_every_upstream_field_exists_with_its_type(
    shared_crds_dir: Path, name: str, version: str
) -> None:
    upstream = fields(served(shared_crds_dir / "metal3" / name)[version])
    ours_by_version = served(OURS / name)
    assert version in ours_by_version, f"{name}: we do not serve {version}"
    ours = fields(ours_by_version[version])
    missing = sorted(p for p in upstream if p not in ours)
    assert missing == [], f"{name} {version}: {len(missing)} of {len(upstream)} missing"
    wrong = sorted(p for p, t in upstream.items() if ours[p] != t)
    assert wrong == []


@pytest.mark.parametrize(("name", "version"), list(cases(SHARED)))
def test_printer_columns_are_upstream_ones(shared_crds_dir: Path, name: str, version: str) -> None:
    def columns(v: JSON) -> list[tuple[str, str, int]]:
        return [
            (c["name"].upper(), c["jsonPath"], int(c.get("priority", 0)))
            for c in v.get("additionalPrinterColumns") or []
        ]

    upstream = served(shared_crds_dir / "metal3" / name)[version]
    assert columns(served(OURS / name)[version]) == columns(upstream)


@pytest.mark.parametrize(("name", "version"), list(cases(SHARED)))
def test_every_field_of_ours_is_described(name: str, version: str) -> None:
    schema = served(OURS / name)[version]["schema"]["openAPIV3Schema"]
    undescribed = []

    def visit(node: JSON, path: str) -> None:
        for key, child in (node.get("properties") or {}).items():
            inside = path.startswith((".spec", ".status")) or key in ("spec", "status")
            if inside and not child.get("description"):
                undescribed.append(f"{path}.{key}")
            visit(child, f"{path}.{key}")
        if isinstance(node.get("items"), dict):
            visit(node["items"], f"{path}[]")

    visit(schema, "")
    assert undescribed == []
