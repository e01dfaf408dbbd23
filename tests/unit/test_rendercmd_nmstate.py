"""`dhcpless render --format nmstate`: fixture YAML in, the expected nmstate YAML out.

Each folder under `tests/fixtures/nmstate/` holds one input file (template, host and
IPAddresses) and the expected nmstate document, written by hand. The output must match
it byte for byte (so the key order is stable) and as data. The inputs are checked
against the upstream CRD schemas (from the checkout's sibling `../shared/crds/`) or our
own CRD, and each renders to OpenStack data that passes pre-unpause validation.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from dhcpless.keys import RamdiskProfile
from dhcpless.models import BareMetalHost
from dhcpless.render.validate import validate_network_data
from dhcpless.tools.render_cmd import EXIT_FAILED, EXIT_OK, run_render
from tests.support import upstream

ROOT = Path(__file__).resolve().parents[2]
NMSTATE = ROOT / "tests" / "fixtures" / "nmstate"
UPSTREAM_CRDS = upstream.METAL3_CRDS
OUR_CRDS = ROOT / "deploy" / "crds"
CASES = [
    pytest.param(NMSTATE / name, id=name) for name in ("ipv4", "ipv6", "dual-stack", "bond", "vlan")
]
CRD_FILES = {
    "Metal3DataTemplate": UPSTREAM_CRDS
    / "infrastructure.cluster.x-k8s.io_metal3datatemplates.yaml",
    "Metal3PreprovisioningDataTemplate": OUR_CRDS / "metal3preprovisioningdatatemplates.yaml",
    "BareMetalHost": UPSTREAM_CRDS / "metal3.io_baremetalhosts.yaml",
    "IPAddress": UPSTREAM_CRDS / "ipam.metal3.io_ipaddresses.yaml",
}


def _render(folder: Path, fmt: str) -> str:
    path = folder / "input.yaml"
    code, out, err = run_render(path, path, path, fmt)
    assert (code, err) == (EXIT_OK, "")
    return out


@pytest.mark.parametrize("folder", CASES)
def test_renders_the_expected_nmstate_document(folder: Path) -> None:
    out = _render(folder, "nmstate")
    expected = (folder / "expected.yaml").read_text()
    assert yaml.safe_load(out) == yaml.safe_load(expected)
    assert out == expected


@pytest.mark.parametrize("folder", CASES)
def test_inputs_pass_pre_unpause_validation(folder: Path) -> None:
    rendered = json.loads(_render(folder, "openstack"))
    docs = list(yaml.safe_load_all((folder / "input.yaml").read_text()))
    host = BareMetalHost.from_k8s(next(d for d in docs if d["kind"] == "BareMetalHost"))
    nmstate = RamdiskProfile.NMSTATE  # what these fixtures are for: an nmstate ramdisk
    assert validate_network_data(rendered, host, profile=nmstate) == ()


def _schema(kind: str, version: str) -> dict[str, Any]:
    return upstream.crd_schema(CRD_FILES[kind], version)


@pytest.mark.parametrize("folder", CASES)
def test_inputs_satisfy_their_crd_schemas(folder: Path) -> None:
    docs = list(yaml.safe_load_all((folder / "input.yaml").read_text()))
    assert {doc["kind"] for doc in docs} <= set(CRD_FILES)
    for doc in docs:
        jsonschema.validate(doc, _schema(doc["kind"], doc["apiVersion"].rsplit("/", 1)[-1]))


def test_nmstate_failures_are_the_same_one_line_errors(tmp_path: Path) -> None:
    source = (NMSTATE / "ipv4" / "input.yaml").read_text()
    without_address = tmp_path / "input.yaml"
    without_address.write_text(source.split("\n---\napiVersion: ipam.metal3.io")[0])
    code, out, err = run_render(without_address, without_address, None, "nmstate")
    assert (code, out) == (EXIT_FAILED, "")
    assert err == 'render: no IPAddress for pool "prov-v4" (needed by networks.ipv4[0] "prov4")'
