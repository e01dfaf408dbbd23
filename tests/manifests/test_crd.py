"""Our CRD, Metal3PreprovisioningDataTemplate, is a valid structural CRD that admits exactly
the networkData language of CAPM3's Metal3DataTemplate (v1beta2).

Covers: Kubernetes accepts the CRD object; its schema is structural (what apiextensions
requires before it serves a CRD); sample templates are accepted and broken ones rejected by
the schema itself; and its networkData declares the same fields as upstream's, so a template
written for one kind is valid for the other.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable
from typing import Any

import jsonschema
import pytest

from .schemas import core_errors, crd_errors, crd_validator, to_json_schema
from .support import ROOT, SHARED_CRDS, Obj, load_yaml, walk

CRD_PATH = ROOT / "deploy" / "crds" / "metal3preprovisioningdatatemplates.yaml"
UPSTREAM = SHARED_CRDS / "metal3" / "infrastructure.cluster.x-k8s.io_metal3datatemplates.yaml"
VERSION = "v1beta2"


@functools.cache
def _crd() -> Obj:
    (crd,) = load_yaml(CRD_PATH)
    return crd


@functools.cache
def _upstream() -> Obj:
    (crd,) = load_yaml(UPSTREAM)
    return crd


@functools.cache
def _validator() -> jsonschema.Draft7Validator:
    return crd_validator(_crd(), VERSION)


def _schema(crd: Obj) -> Obj:
    served = next(v for v in crd["spec"]["versions"] if v["name"] == VERSION)
    schema: Obj = served["schema"]["openAPIV3Schema"]
    return schema


def _network_data(crd: Obj, spec_field: str) -> Obj:
    node: Obj = _schema(crd)["properties"]["spec"]["properties"][spec_field]
    return node


def structural_problems(schema: Obj) -> list[str]:
    """Where a schema breaks the structural rules apiextensions.k8s.io/v1 enforces."""
    return [
        problem
        for path, node in walk(schema)
        if isinstance(node, dict) and _is_schema_node(path)
        for problem in _node_problems(path or "<root>", node)
    ]


def _is_schema_node(path: str) -> bool:
    """The root, an `items` schema, or a schema under `properties` (walk's dotted paths)."""
    return not path or path.endswith(".items") or path.rsplit(".", 2)[-2:-1] == ["properties"]


def _node_problems(where: str, node: Obj) -> list[str]:
    problems = []
    loose = node.get("x-kubernetes-preserve-unknown-fields") or node.get(
        "x-kubernetes-int-or-string"
    )
    if "type" not in node and not loose:
        problems.append(f"{where}: no type")
    if "properties" in node and "additionalProperties" in node:
        problems.append(f"{where}: properties and additionalProperties together")
    keys = node.get("x-kubernetes-list-map-keys", [])
    required = node.get("items", {}).get("required", [])
    problems += [f"{where}: list-map key {k} not required" for k in keys if k not in required]
    for branch in node.get("anyOf", []):
        problems += [
            f"{where}: anyOf branch sets {k}" for k in ("type", "properties") if k in branch
        ]
    return problems


def _template(network_data: Obj) -> Obj:
    return {
        "apiVersion": f"infrastructure.cluster.x-k8s.io/{VERSION}",
        "kind": "Metal3PreprovisioningDataTemplate",
        "metadata": {"name": "t1", "namespace": "metal3"},
        "spec": {"preprovisioningNetworkData": network_data},
    }


MAC = {"fromAnnotation": {"object": "baremetalhost", "annotation": "example.com/mac-0"}}
SAMPLE: Obj = {
    "links": {
        "ethernets": [{"type": "phy", "id": "enp1s0", "macAddress": MAC}],
        "vlans": [{"id": "vlan10", "vlanID": 10, "vlanLink": "enp1s0", "macAddress": MAC}],
    },
    "networks": {
        "ipv4": [
            {
                "id": "mgmt",
                "link": "vlan10",
                "ipAddressFromIPPool": "mgmt-pool",
                "routes": [
                    {
                        "network": "0.0.0.0",
                        "prefix": 0,
                        "gateway": {"fromIPPool": "mgmt-pool"},
                        "services": {"dns": ["8.8.8.8"]},
                    }
                ],
            }
        ],
        "ipv6SLAAC": [{"id": "v6", "link": "vlan10"}],
    },
    "services": {"dns": ["8.8.4.4", "2001:db8::53"], "dnsFromIPPool": "mgmt-pool"},
}

Edit = Callable[[Any], None]


def _eth(network_data: Any) -> Any:
    return network_data["links"]["ethernets"][0]


def _route(network_data: Any) -> Any:
    return network_data["networks"]["ipv4"][0]["routes"][0]


REJECTED = [
    pytest.param(lambda nd: _eth(nd).pop("macAddress"), id="no-mac"),
    pytest.param(lambda nd: _eth(nd).update(macAddress={}), id="empty-mac"),
    pytest.param(
        lambda nd: _eth(nd)["macAddress"].update(string="aa:bb:cc:dd:ee:ff"), id="two-macs"
    ),
    pytest.param(lambda nd: _eth(nd).update(type="wifi"), id="link-type"),
    pytest.param(lambda nd: _eth(nd).update(mtu=100), id="mtu-low"),
    pytest.param(lambda nd: _eth(nd).update(name="a-name-longer-than-15"), id="long-name"),
    pytest.param(lambda nd: nd["links"]["vlans"][0].update(vlanID=5000), id="vlan-id"),
    pytest.param(lambda nd: _route(nd).update(gateway={"string": "2001:db8::1"}), id="v6-gw-on-v4"),
    pytest.param(lambda nd: _route(nd).update(prefix=33), id="prefix-33"),
    pytest.param(lambda nd: _route(nd).pop("gateway"), id="no-gateway"),
    pytest.param(lambda nd: nd["services"]["dns"].append("not-an-ip"), id="bad-dns"),
    pytest.param(lambda nd: nd["networks"]["ipv4"][0].pop("link"), id="no-link"),
    pytest.param(lambda nd: nd.update(clusterName="c"), id="cluster-name"),
]


def test_crd_object_is_valid_kubernetes() -> None:
    assert core_errors(_crd()) == []


def test_crd_schema_is_structural() -> None:
    assert structural_problems(_schema(_crd())) == []


def test_structural_check_catches_an_untyped_field() -> None:
    schema = copy.deepcopy(_schema(_crd()))  # _crd() is cached: never mutate it in place
    schema["properties"]["spec"]["properties"]["extra"] = {"description": "no type"}
    assert structural_problems(schema) == [".properties.spec.properties.extra: no type"]


def test_sample_template_is_accepted() -> None:
    assert crd_errors(_validator(), _template(SAMPLE)) == []


def test_bond_parameters_take_scalars() -> None:
    bond: Obj = {"id": "bond0", "bondMode": "802.3ad", "macAddress": MAC, "bondLinks": ["enp1s0"]}
    bond["parameters"] = [{"name": "miimon", "value": 100}, {"name": "lacp_rate", "value": "fast"}]
    sample = copy.deepcopy(SAMPLE)
    sample["links"]["bonds"] = [bond]
    assert crd_errors(_validator(), _template(sample)) == []


@pytest.mark.parametrize("edit", REJECTED)
def test_broken_template_is_rejected(edit: Edit) -> None:
    sample = copy.deepcopy(SAMPLE)
    edit(sample)
    assert crd_errors(_validator(), _template(sample)) != []


def _property_paths(schema: Obj) -> set[str]:
    return {path for path, _ in walk(schema) if path.rsplit(".", 2)[-2:-1] == ["properties"]}


def test_network_data_fields_match_capm3() -> None:
    upstream = _upstream()
    ours = _property_paths(_network_data(_crd(), "preprovisioningNetworkData"))
    theirs = _property_paths(_network_data(upstream, "networkData"))
    assert ours == theirs


def test_sample_is_valid_for_capm3_too() -> None:
    upstream = _upstream()
    schema = to_json_schema(_network_data(upstream, "networkData"))
    validator = jsonschema.Draft7Validator(schema, format_checker=jsonschema.FormatChecker())
    assert [e.message for e in validator.iter_errors(SAMPLE)] == []
