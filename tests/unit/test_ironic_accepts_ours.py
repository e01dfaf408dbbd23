"""Everything we render or hand over, judged by Ironic's own network_data schema.

Ironic validates the node's `network_data` with jsonschema against
`../shared/schemas/ironic/network-data-schema.json`; BMO sends it our Secret's `networkData`
unchanged. So every committed render fixture, every fixture template rendered by
`dhcpless render` (the render and nmstate fixtures), every network-data template the chain
tests use (rendered with the first address of its pools) and the hand-written network data
they use must pass it with zero errors. The Secrets a whole run writes (examples and the
demo inventory) are checked in `tests/world/test_ironic_world.py`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from dhcpless.models import BareMetalHost
from dhcpless.models.netdata import NetworkData
from dhcpless.render import Address, render_network_data
from dhcpless.tools.render_cmd import EXIT_OK, run_render
from tests.ironic_schema import ironic_errors
from tests.support import objects

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "render"
RENDERS = [
    pytest.param(folder, template, id=f"{folder.name}/{template.name}")
    for folder in sorted(FIXTURES.iterdir())
    for template in sorted(folder.glob("template*.yaml"))
]
NMSTATE_INPUTS = sorted((FIXTURES.parent / "nmstate").glob("*/input.yaml"))


@pytest.mark.parametrize("folder", [pytest.param(f, id=f.name) for f in sorted(FIXTURES.iterdir())])
def test_committed_fixture(folder: Path) -> None:
    assert ironic_errors(json.loads((folder / "expected.json").read_text())) == []


@pytest.mark.parametrize(("folder", "template"), RENDERS)
def test_fixture_rendered_now(folder: Path, template: Path) -> None:
    code, out, err = run_render(template, folder / "host.yaml", folder / "addresses.yaml")
    assert code == EXIT_OK, err
    assert ironic_errors(json.loads(out)) == []


@pytest.mark.parametrize("both", [pytest.param(p, id=p.parent.name) for p in NMSTATE_INPUTS])
def test_nmstate_fixture_inputs_in_openstack_form(both: Path) -> None:
    """The nmstate fixtures' templates (template, host and addresses in one file)."""
    code, out, err = run_render(both, both, both)
    assert code == EXIT_OK, err
    assert ironic_errors(json.loads(out)) == []


def _first_address(pool: dict[str, Any]) -> Address:
    spec = pool["spec"]
    dns = tuple(spec["dnsServers"])
    return Address(spec["pools"][0]["start"], spec["prefix"], spec["gateway"], dns)


CHAIN_TEMPLATES = {
    name: getattr(objects, name) for name in ("IPV4", "IPV6", "DUAL", "BOND_VLAN", "NO_POOLS")
}


@pytest.mark.parametrize("name", sorted(CHAIN_TEMPLATES))
def test_chain_test_template(name: str) -> None:
    addresses = {p["metadata"]["name"]: _first_address(p) for p in (objects.POOL4, objects.POOL6)}
    host = BareMetalHost.from_k8s(objects.host())
    data = NetworkData.model_validate(CHAIN_TEMPLATES[name])
    rendered = render_network_data(data, host, addresses)
    assert rendered is not None
    assert ironic_errors(rendered) == []


def test_chain_tests_hand_written_network_data() -> None:
    assert ironic_errors(json.loads(objects.VALID_NETWORK_DATA)) == []
