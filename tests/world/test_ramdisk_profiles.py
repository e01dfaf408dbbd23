"""The ramdisk profile in the whole world: what the ramdisk cannot configure is never released.

Two hosts with the same bond + VLAN data (`objects.BOND_VLAN`): one on a template with no
profile (the fleet's, the community ramdisk: glean per NIC dies on every bond port), one on a
template that declares an nmstate ramdisk. Through event sources, broker, functions and the
BMO stand-in (whose ramdisk boots as the Secret's recorded profile says): the first stays
paused with one Warning naming the bond, the rule and the way out, and no Secret; the second is
released with its profile recorded on its Secret and reaches `available`. Likewise a host whose
network is on a VLAN: refused on a `glean-el10` template (`keyfile-vlan`), served on `glean-el9`.
"""

from __future__ import annotations

from typing import Any

import pytest
from kubernetes import client

from dhcpless import keys
from dhcpless_sandbox.demo.inventory import create
from dhcpless_sandbox.runtime.world import World
from tests.support import objects
from tests.support import world_reads as reads
from tests.support.waits import eventually, stays

NS = objects.NS
REF = "metal3datatemplates.infrastructure.cluster.x-k8s.io/"


def _objects() -> list[dict[str, Any]]:
    return [
        {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": NS}},
        objects.POOL4,
        objects.data_template(objects.BOND_VLAN, "bond-fleet"),
        objects.data_template(objects.BOND_VLAN, "bond-nmstate", profile="nmstate"),
        objects.host("refused", template=REF + "bond-fleet"),
        objects.host("served", template=REF + "bond-nmstate"),
    ]


def _secret_annotations(api: client.ApiClient, name: str) -> dict[str, str] | None:
    """The annotations of the host's Secret; None: there is no Secret."""
    listed = client.CoreV1Api(api).list_namespaced_secret(NS).items
    wanted = name + keys.SECRET_NAME_SUFFIX
    found = [s.metadata for s in listed if s.metadata and s.metadata.name == wanted]
    return dict(found[0].annotations or {}) if found else None


@pytest.mark.slow
def test_a_bond_is_refused_for_glean_and_served_for_nmstate(world: World) -> None:
    api = world.api_client()
    create(api, _objects())
    eventually(lambda: reads.state(api, "served") == keys.ProvisioningState.AVAILABLE, 60, "served")
    served = _secret_annotations(api, "served") or {}
    assert served.get(keys.RAMDISK_PROFILE_ANNOTATION) == "nmstate"
    (warning,) = eventually(
        lambda: reads.warnings(api, "refused", "InvalidNetworkData"), 30, "the refusal's Warning"
    )
    assert "bond bond0" in warning and "(bond-ports)" in warning and "boot NIC alone" in warning

    _stays_refused(api, "refused")


def _stays_refused(api: client.ApiClient, name: str) -> None:
    """Paused, no Secret, no BMO state, for 3 s; one Warning (resync ticks repeat none)."""

    def still_refused() -> bool:
        paused = keys.PAUSED_ANNOTATION in reads.host(api, name)["metadata"]["annotations"]
        return paused and _secret_annotations(api, name) is None and reads.state(api, name) is None

    stays(still_refused, 3.0, f"the refused host {name} stays paused, with no Secret")
    assert len(reads.warnings(api, name, "InvalidNetworkData")) == 1


VLAN: dict[str, Any] = {
    "links": {
        "ethernets": [objects.IPV4["links"]["ethernets"][0]],
        "vlans": [
            {
                "id": "vlan100",
                "vlanID": 100,
                "vlanLink": "eth0",
                "macAddress": {"string": objects.MAC},
            }
        ],
    },
    "networks": {"ipv4": [{**objects.IPV4["networks"]["ipv4"][0], "link": "vlan100"}]},
}
"""One NIC, the host's network on a VLAN of it: glean's el10 keyfile for the VLAN is an
Ethernet profile (NetworkManager makes no VLAN), its el9 ifcfg a VLAN."""


@pytest.mark.slow
def test_a_vlan_is_refused_for_el10_and_served_for_el9(world: World) -> None:
    api = world.api_client()
    create(
        api,
        [
            {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": NS}},
            objects.POOL4,
            objects.data_template(VLAN, "vlan-el10", profile="glean-el10"),
            objects.data_template(VLAN, "vlan-el9", profile="glean-el9"),
            objects.host("el10", template=REF + "vlan-el10"),
            objects.host("el9", template=REF + "vlan-el9"),
        ],
    )
    eventually(
        lambda: reads.state(api, "el9") == keys.ProvisioningState.AVAILABLE, 60, "el9 served"
    )
    (warning,) = eventually(
        lambda: reads.warnings(api, "el10", "InvalidNetworkData"), 30, "the refusal's Warning"
    )
    assert [
        w for w in ("link vlan100", "(keyfile-vlan)", "untagged", "nmstate") if w not in warning
    ] == []
    _stays_refused(api, "el10")
