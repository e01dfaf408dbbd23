"""The sandbox's CRDs say whole what their fields are: no description cut at its first comma.

Our CRDs write most fields as YAML flow mappings (`{type: string, description: ...}`), where an
unquoted comma ends the value: "CPU architecture of the host (x86_64, aarch64), used to pick
images." became the description "CPU architecture of the host (x86_64" plus two keys with no
value, which `kubectl explain` then showed cut. Held here three ways: no schema node has a key
without a value; every node uses only keywords the upstream CRD's node at the same path uses
(`../shared/crds`, the generated CRDs, have no such stray keys); and `kubectl explain` prints a
description that had a comma whole, and the OpenAPI documents it reads (`/openapi/v3`) carry
every field's description exactly as the CRD file has it.
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
import yaml

from dhcpless_sandbox.apiserver.server import SandboxServer
from tests.support import upstream

from .kubectl_helpers import ok, runner

OURS = resources.files("dhcpless_sandbox").joinpath("crds")
FILES = sorted(f.name for f in OURS.iterdir() if f.name.endswith(".yaml"))
METAL3 = [name for name in FILES if not name.startswith("cluster.x-k8s.io")]
SCHEMA_KEYWORDS = frozenset(
    {"type", "description", "properties", "items", "required", "enum", "default", "format"}
    | {"additionalProperties", "x-kubernetes-preserve-unknown-fields", "nullable", "pattern"}
    | {"minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems", "anyOf", "oneOf"}
    | {"x-kubernetes-list-type", "x-kubernetes-list-map-keys", "x-kubernetes-int-or-string"}
    | {"x-kubernetes-map-type", "x-kubernetes-validations", "x-kubernetes-embedded-resource"}
    | {"allOf", "not", "exclusiveMinimum", "exclusiveMaximum", "uniqueItems", "multipleOf"}
    | {"minProperties", "maxProperties"}
)

OURS_ALONE = frozenset({"description", "default", "x-kubernetes-preserve-unknown-fields"})
"""Ours may differ there: descriptions are ours, and BMO's status keeps unknown fields here."""


def _ours(name: str) -> list[dict[str, Any]]:
    return [d for d in yaml.safe_load_all(OURS.joinpath(name).read_text()) if d]


def _nodes(schema: Any, path: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every schema node with its field path (`spec.bmc.address`, `spec.taints[]`)."""
    if not isinstance(schema, dict):
        return
    yield path, schema
    for key, sub in (schema.get("properties") or {}).items():
        yield from _nodes(sub, f"{path}.{key}" if path else key)
    if isinstance(schema.get("items"), dict):
        yield from _nodes(schema["items"], f"{path}[]")
    if isinstance(schema.get("additionalProperties"), dict):
        yield from _nodes(schema["additionalProperties"], f"{path}{{}}")


def _schemas(docs: list[dict[str, Any]]) -> Iterator[tuple[str, dict[str, Any]]]:
    for doc in docs:
        for version in doc["spec"]["versions"]:
            yield version["name"], version["schema"]["openAPIV3Schema"]


@pytest.mark.parametrize("name", FILES)
def test_no_description_is_cut_into_stray_keys(name: str) -> None:
    for doc in _ours(name):
        for version in doc["spec"]["versions"]:
            columns = version.get("additionalPrinterColumns") or []
            assert all(None not in c.values() for c in columns), (name, columns)
        for version, schema in _schemas([doc]):
            for path, node in _nodes(schema):
                stray = set(node) - SCHEMA_KEYWORDS
                assert not stray, f"{name} {version} {path}: {sorted(stray)}"
                assert isinstance(node.get("description", ""), str), (name, path)


@pytest.mark.parametrize("name", METAL3)
def test_every_node_uses_only_what_the_upstream_node_uses(name: str) -> None:
    path = upstream.required(upstream.METAL3_CRDS) / name
    theirs = {
        (version, where): set(node)
        for version, schema in _schemas([yaml.safe_load(path.read_text())])
        for where, node in _nodes(schema)
    }
    for version, schema in _schemas(_ours(name)):
        for where, node in _nodes(schema):
            upstream_keys = theirs.get((version, where))
            if upstream_keys is None:
                continue  # a field upstream lacks is another test's business (field sets)
            extra = set(node) - upstream_keys - OURS_ALONE
            assert not extra, f"{name} {version} {where}: {sorted(extra)} not upstream"


@pytest.mark.kubectl
def test_explain_prints_a_description_with_commas_whole(
    sandbox: SandboxServer, tmp_path: Path
) -> None:
    kubectl = runner(sandbox, tmp_path)
    said = " ".join(ok(kubectl("explain", "baremetalhost.spec.architecture")).split())
    assert "CPU architecture of the host (x86_64, aarch64), used to pick images." in said
    said = " ".join(ok(kubectl("explain", "ippool.spec.pools.subnet")).split())
    expected = " ".join(_description("ipam.metal3.io_ippools.yaml", "spec.pools[].subnet").split())
    assert expected.endswith("when start and end are not given.") and expected in said


def _description(name: str, field: str) -> str:
    for _, schema in _schemas(_ours(name)):
        for where, node in _nodes(schema):
            if where == field:
                return str(node["description"])
    raise AssertionError(f"{field} not in {name}")


def _served(sandbox: SandboxServer, group_version: str, kind: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{sandbox.url}/openapi/v3/apis/{group_version}") as answer:
        document = json.load(answer)
    schemas = document["components"]["schemas"]
    (name,) = [n for n in schemas if n.endswith(f".{kind}")]
    found: dict[str, Any] = schemas[name]
    return found


@pytest.mark.parametrize("name", METAL3)
def test_what_kubectl_explain_reads_is_every_description_whole(
    sandbox: SandboxServer, name: str
) -> None:
    for doc in _ours(name):
        group, kind = doc["spec"]["group"], doc["spec"]["names"]["kind"]
        for version, schema in _schemas([doc]):
            served = dict(_nodes(_served(sandbox, f"{group}/{version}", kind)))
            for where, node in _nodes(schema):
                if where in ("metadata", "") or "description" not in node:
                    continue
                got = served[where].get("description")
                assert got == node["description"], f"{kind} {version} {where}: {got!r}"
