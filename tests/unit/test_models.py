"""Models at the edge: both CAPM3 API versions, tolerance of unknown data, clear errors."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from dhcpless.keys import ProvisioningState
from dhcpless.models import (
    BareMetalHost,
    IPAddress,
    IPClaim,
    Metal3DataTemplate,
    ModelError,
    Secret,
    network_template_from_k8s,
)
from dhcpless.models.base import K8sObject

BONDED = Path(__file__).resolve().parents[1] / "fixtures" / "render" / "bond-vlan"


def _load(name: str) -> Any:
    return yaml.safe_load((BONDED / name).read_text())


def test_v1beta1_and_v1beta2_bond_parameters_normalise_to_one_form() -> None:
    old = Metal3DataTemplate.from_k8s(_load("template-v1beta1.yaml"))
    new = Metal3DataTemplate.from_k8s(_load("template-v1beta2.yaml"))
    assert old.network_data is not None and new.network_data is not None
    assert old.network_data.links.bonds == new.network_data.links.bonds
    assert [(p.name, p.value) for p in new.network_data.links.bonds[0].parameters] == [
        ("miimon", {})
    ]


@pytest.mark.parametrize(
    ("model", "obj", "message"),
    [
        pytest.param(
            IPClaim,
            {"kind": "IPClaim", "metadata": {"name": "c", "namespace": "n"}, "spec": {}},
            "IPClaim n/c: field spec.pool: Field required",
            id="IPClaim without pool",
        ),
        pytest.param(
            IPAddress,
            {"metadata": {"name": "a"}, "spec": {"prefix": 24}},
            "IPAddress a: field spec.address: Field required",
            id="IPAddress without address",
        ),
        pytest.param(
            BareMetalHost,
            {"metadata": {"name": "h"}, "spec": {"online": "maybe"}},
            "BareMetalHost h: field spec.online",
            id="BareMetalHost with a non-boolean online",
        ),
        pytest.param(
            Metal3DataTemplate,
            {
                "metadata": {"name": "t"},
                "spec": {"networkData": {"links": {"ethernets": [{"id": "e"}]}}},
            },
            "Metal3DataTemplate t: field spec.networkData.links.ethernets.0.type",
            id="ethernet without type",
        ),
        pytest.param(
            Metal3DataTemplate,
            {"metadata": {"name": "t"}, "spec": {"networkData": {"networks": "x"}}},
            "Metal3DataTemplate t: field spec.networkData.networks",
            id="networks not an object",
        ),
        pytest.param(
            IPAddress, ["not", "a", "mapping"], "expected an object, got list", id="not a mapping"
        ),
    ],
)
def test_malformed_objects_give_one_clear_error(
    model: type[K8sObject], obj: Any, message: str
) -> None:
    with pytest.raises(ModelError) as err:
        model.from_k8s(obj)
    assert message in str(err.value)


def test_unknown_fields_and_unknown_states_are_tolerated() -> None:
    host = BareMetalHost.from_k8s(
        {
            "metadata": {"name": "h", "futureField": 1},
            "spec": {"bootMACAddress": "52:54:00:00:00:01", "newThing": {}},
            "status": {"provisioning": {"state": "teleporting"}},
        }
    )
    assert host.spec.boot_mac_address == "52:54:00:00:00:01"
    assert host.status.provisioning.state == "teleporting"
    assert host.status.hardware is None


def test_known_states_become_the_enum() -> None:
    host = BareMetalHost.from_k8s({"status": {"provisioning": {"state": "available"}}})
    assert host.status.provisioning.state is ProvisioningState.AVAILABLE


def test_template_kind_dispatch() -> None:
    prep = network_template_from_k8s(
        {"kind": "Metal3PreprovisioningDataTemplate", "metadata": {"name": "p"}, "spec": {}}
    )
    assert prep.kind == "Metal3PreprovisioningDataTemplate"
    with pytest.raises(ModelError, match="got 'Secret'"):
        network_template_from_k8s({"kind": "Secret"})


def test_secret_never_shows_its_data() -> None:
    secret = Secret.from_k8s(
        {"metadata": {"name": "s", "namespace": "n"}, "data": {"networkData": Secret.encode("TOP")}}
    )
    shown = [repr(secret), str(secret), f"{secret}", repr([secret])]
    assert all("networkData" in text and Secret.encode("TOP") not in text for text in shown)
    assert secret.decoded("networkData") == "TOP"


def test_to_k8s_writes_camel_case() -> None:
    claim = IPClaim.from_k8s({"metadata": {"name": "c"}, "spec": {"pool": {"name": "p"}}})
    written = claim.to_k8s()
    assert written["apiVersion"] == "ipam.metal3.io/v1alpha1"
    assert written["spec"] == {"pool": {"name": "p"}}
    assert "errorMessage" not in written["status"]
