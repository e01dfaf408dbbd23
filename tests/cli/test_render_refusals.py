"""`dhcpless render` refuses what the API server or the functions refuse, never exit 0.

Each broken template is the bond-vlan fixture with one edit. Where the API server refuses it
(unknown field, enum, type, required, bounds), the message must be the one the same checks
give against the **upstream** CRD in `../shared/crds` (so the project's own CRDs, which the
command ships, have not drifted from upstream), and an unknown field names the nearest known
one. Where only the functions refuse it (a dangling reference), the message is the rule's.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from dhcpless.tools import cli, render_schema
from tests.support import upstream

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "render" / "bond-vlan"
UPSTREAM = upstream.METAL3_CRDS / "infrastructure.cluster.x-k8s.io_metal3datatemplates.yaml"
ETHERNET = "spec.networkData.links.ethernets[0]"


def _edited(version: str, edit: str, old: str, new: str) -> str:
    text = (FIXTURE / f"template-{version}.yaml").read_text()
    assert old in text, f"fixture has no {old!r} for {edit}"
    return text.replace(old, new, 1)


API_SERVER: list[Any] = [
    pytest.param(
        "ipAddressFromIPPool",
        "ipAdressFromIPPool",
        'unknown field "spec.networkData.networks.ipv4[0].ipAdressFromIPPool" '
        '(did you mean "ipAddressFromIPPool"?)',
        id="typo",
    ),
    pytest.param(
        "type: phy",
        "type: phys",
        f'{ETHERNET}.type: Unsupported value: "phys": supported values: "bridge"',
        id="type-phys",
    ),
    pytest.param(
        "bondMode: 802.3ad",
        "bondMode: lacp",
        'spec.networkData.links.bonds[0].bondMode: Unsupported value: "lacp"',
        id="bond-mode",
    ),
    pytest.param(
        "vlanID: 10",
        "vlanID: ten",
        'spec.networkData.links.vlans[0].vlanID: Invalid value: "string"',
        id="vlan-id-type",
    ),
    pytest.param(
        "vlanID: 10",
        "vlanID: 5000",
        "spec.networkData.links.vlans[0].vlanID: Invalid value: 5000: "
        "spec.networkData.links.vlans[0].vlanID in body should be less than or equal to 4096",
        id="vlan-id-range",
    ),
    pytest.param(
        "          link: vlan10\n",
        "",
        "spec.networkData.networks.ipv4[0].link: Required value",
        id="network-without-link",
    ),
]
CHAIN: list[Any] = [
    pytest.param(
        "vlanLink: bond0",
        "vlanLink: bond9",
        'link-reference: vlan "vlan10" names link "bond9", which does not exist',
        id="dangling-vlan-link",
    ),
    pytest.param(
        "bondLinks: [nic0, nic1]",
        "bondLinks: [nic0, nic7]",
        'link-reference: bond "bond0" names link "nic7"',
        id="dangling-bond-link",
    ),
    pytest.param(
        "          link: vlan10\n",
        "          link: vlan11\n",
        'link-reference: network "mgmt4" names link "vlan11"',
        id="dangling-network-link",
    ),
]


def _render(tmp_path: Path, template: str, capsys: Any) -> tuple[int, str]:
    path = tmp_path / "template.yaml"
    path.write_text(template)
    files = ["--host", str(FIXTURE / "host.yaml"), "--addresses", str(FIXTURE / "addresses.yaml")]
    profile = ["--ramdisk-profile", "nmstate"]  # a bond: what an nmstate ramdisk configures
    code = cli.main(["render", "--template", str(path), *files, *profile])
    captured = capsys.readouterr()
    assert (captured.out == "") is (code != 0)  # the network data, or nothing
    return code, captured.err


def _upstream_refusal(template: str) -> str | None:
    doc = yaml.safe_load(template)
    crds = tuple(yaml.safe_load_all(upstream.required(UPSTREAM).read_text()))
    schema = render_schema.schema_for(doc["apiVersion"], doc["kind"], crds)
    assert schema is not None
    return render_schema.refusal(doc, schema)


@pytest.mark.parametrize("version", ["v1beta1", "v1beta2"])
@pytest.mark.parametrize(("old", "new", "message"), API_SERVER)
def test_what_the_api_server_refuses_is_refused_in_its_words(
    tmp_path: Path, capsys: Any, version: str, old: str, new: str, message: str
) -> None:
    template = _edited(version, message, old, new)
    code, err = _render(tmp_path, template, capsys)
    assert code == 1 and err.count("\n") == 1, err
    assert message in err
    assert err == f"render: {_upstream_refusal(template)}\n"  # what upstream's schema says


@pytest.mark.parametrize("version", ["v1beta1", "v1beta2"])
@pytest.mark.parametrize(("old", "new", "message"), CHAIN)
def test_what_the_functions_refuse_is_refused_with_the_rule(
    tmp_path: Path, capsys: Any, version: str, old: str, new: str, message: str
) -> None:
    template = _edited(version, message, old, new)
    assert _upstream_refusal(template) is None  # the API server takes it: only we refuse it
    code, err = _render(tmp_path, template, capsys)
    assert code == 1 and err.count("\n") == 1, err
    assert err.startswith("render: the functions would refuse this network data: ")
    assert message in err


@pytest.mark.parametrize("version", ["v1beta1", "v1beta2"])
def test_the_fixture_itself_is_accepted_by_both(tmp_path: Path, capsys: Any, version: str) -> None:
    template = (FIXTURE / f"template-{version}.yaml").read_text()
    assert _upstream_refusal(template) is None
    code, err = _render(tmp_path, template, capsys)
    assert (code, err) == (0, "")


@pytest.mark.parametrize(
    ("address", "refused"),
    [
        pytest.param("ipmi://192.0.2.9", "BMC driver ipmi boots the ramdisk by network", id="ipmi"),
        pytest.param(
            "idrac-redfish://192.0.2.9/redfish/v1/Systems/System.Embedded.1",
            "idrac-virtualmedia://192.0.2.9/redfish/v1/Systems/System.Embedded.1",
            id="idrac-redfish",
        ),
        pytest.param("redfish-virtualmedia://192.0.2.9/redfish/v1/Systems/1", "", id="served"),
    ],
)
def test_a_host_whose_bmc_boots_by_pxe_is_refused(
    tmp_path: Path, capsys: Any, address: str, refused: str
) -> None:
    host = yaml.safe_load((FIXTURE / "host.yaml").read_text())
    host["spec"]["bmc"] = {"address": address, "credentialsName": "node-1-bmc"}
    (tmp_path / "host.yaml").write_text(yaml.safe_dump(host))
    files = ["--host", str(tmp_path / "host.yaml"), "--addresses", str(FIXTURE / "addresses.yaml")]
    template = str(FIXTURE / "template-v1beta2.yaml")
    code = cli.main(["render", "--template", template, *files, "--ramdisk-profile", "nmstate"])
    err = capsys.readouterr().err
    if not refused:
        assert (code, err) == (0, "")
        return
    assert code == 1 and err.count("\n") == 1, err
    assert err.startswith("render: the functions would keep this host paused: ")
    assert refused in err
