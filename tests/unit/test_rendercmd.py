"""The core of `dhcpless render`: fixture YAML in, CAPM3-shaped JSON or one error line out.

The fixtures are also checked against the upstream CRD schemas (read from the
checkout's sibling `../shared/crds/`), so they are objects an API server would accept.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from dhcpless.tools.render_cmd import EXIT_FAILED, EXIT_OK, EXIT_USAGE, run_render
from tests.support import upstream

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "render"
CRDS = upstream.METAL3_CRDS
SINGLE = FIXTURES / "single-nic"
BONDED = FIXTURES / "bond-vlan"


def _expected(folder: Path) -> Any:
    return json.loads((folder / "expected.json").read_text())


@pytest.mark.parametrize(
    ("template", "host", "addresses", "folder"),
    [
        pytest.param("template.yaml", "host.yaml", "addresses.yaml", SINGLE, id="single NIC"),
        pytest.param("template-v1beta2.yaml", "host.yaml", "addresses.yaml", BONDED, id="v1beta2"),
        pytest.param("template-v1beta1.yaml", "host.yaml", "addresses.yaml", BONDED, id="v1beta1"),
    ],
)
def test_renders_the_expected_document(
    template: str, host: str, addresses: str, folder: Path
) -> None:
    code, out, err = run_render(folder / template, folder / host, folder / addresses, "openstack")
    assert (code, err) == (EXIT_OK, "")
    assert json.loads(out) == _expected(folder)
    assert out == json.dumps(_expected(folder), indent=2)


def test_one_file_may_hold_everything(tmp_path: Path) -> None:
    parts = [
        (SINGLE / name).read_text() for name in ("template.yaml", "host.yaml", "addresses.yaml")
    ]
    bundle = tmp_path / "all.yaml"
    bundle.write_text("\n---\n".join(parts))
    code, out, _ = run_render(bundle, bundle, bundle, "openstack")
    assert code == EXIT_OK
    assert json.loads(out) == _expected(SINGLE)


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "extra.yaml"
    path.write_text(text)
    return path


FAILURES: list[Any] = [
    pytest.param(
        lambda tmp: (SINGLE / "template.yaml", SINGLE / "host.yaml", None),
        'render: no IPAddress for pool "prov-pool" (needed by networks.ipv4[0] "prov")',
        id="missing address",
    ),
    pytest.param(
        lambda tmp: (SINGLE / "template.yaml", tmp / "nope.yaml", None),
        "render: cannot read ",
        id="missing file",
    ),
    pytest.param(
        lambda tmp: (SINGLE / "template.yaml", _write(tmp, "a: [b"), None),
        "render: cannot read ",
        id="bad YAML",
    ),
    pytest.param(
        lambda tmp: (SINGLE / "template.yaml", BONDED / "template-v1beta2.yaml", None),
        "render: expected exactly one template, found 2",
        id="two templates",
    ),
    pytest.param(
        lambda tmp: (SINGLE / "template.yaml", SINGLE / "addresses.yaml", None),
        "render: expected exactly one BareMetalHost, found 0",
        id="no host",
    ),
    pytest.param(
        lambda tmp: (
            _write(tmp, (BONDED / "template-v1beta2.yaml").read_text().replace("vlanLink", "x")),
            BONDED / "host.yaml",
            BONDED / "addresses.yaml",
        ),
        'render: Metal3DataTemplate in version "v1beta2" cannot be handled as a '
        "Metal3DataTemplate: strict decoding error: "
        'unknown field "spec.networkData.links.vlans[0].x"',
        id="malformed template names the field",
    ),
    pytest.param(
        lambda tmp: (
            SINGLE / "template.yaml",
            _write(tmp, (SINGLE / "host.yaml").read_text().replace("  bootMACAddress", "#")),
            SINGLE / "addresses.yaml",
        ),
        "render: NICs list not populated; the host has not been inspected",
        id="no boot MAC before inspection",
    ),
    pytest.param(
        lambda tmp: (
            _write(tmp, "kind: Metal3DataTemplate\nmetadata: {name: t}\nspec: {}\n"),
            SINGLE / "host.yaml",
            None,
        ),
        "render: Metal3DataTemplate t has no network data to render",
        id="template without networkData",
    ),
]


@pytest.mark.parametrize(("files", "message"), FAILURES)
def test_failures_are_one_clear_line(
    tmp_path: Path, files: Callable[[Path], tuple[Path, Path, Path | None]], message: str
) -> None:
    code, out, err = run_render(*files(tmp_path), "openstack")
    assert (code, out) == (EXIT_FAILED, "")
    assert err.startswith(message)
    assert "\n" not in err


@pytest.mark.parametrize(
    ("fmt", "message"),
    [
        pytest.param("yaml", "render: unknown format 'yaml'", id="unknown"),
    ],
)
def test_formats(fmt: str, message: str) -> None:
    code, out, err = run_render(SINGLE / "template.yaml", SINGLE / "host.yaml", None, fmt)
    assert (code, out) == (EXIT_USAGE, "")
    assert err.startswith(message)


def _crd_schema(filename: str, version: str) -> dict[str, Any]:
    return upstream.crd_schema(CRDS / filename, version)


@pytest.mark.parametrize(
    ("fixture", "crd"),
    [
        pytest.param(
            BONDED / "template-v1beta2.yaml",
            "infrastructure.cluster.x-k8s.io_metal3datatemplates.yaml",
            id="v1beta2 template",
        ),
        pytest.param(
            BONDED / "template-v1beta1.yaml",
            "infrastructure.cluster.x-k8s.io_metal3datatemplates.yaml",
            id="v1beta1 template",
        ),
        pytest.param(SINGLE / "host.yaml", "metal3.io_baremetalhosts.yaml", id="host"),
        pytest.param(BONDED / "host.yaml", "metal3.io_baremetalhosts.yaml", id="bonded host"),
        pytest.param(SINGLE / "addresses.yaml", "ipam.metal3.io_ipaddresses.yaml", id="address"),
    ],
)
def test_fixtures_satisfy_the_upstream_schema(fixture: Path, crd: str) -> None:
    for doc in yaml.safe_load_all(fixture.read_text()):
        version = doc["apiVersion"].rsplit("/", 1)[-1]
        jsonschema.validate(doc, _crd_schema(crd, version))
