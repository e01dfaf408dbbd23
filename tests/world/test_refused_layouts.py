"""Each layout the ramdisk cannot bring up, in the whole world: paused, one Warning, no Secret.

One host per refused layout of the layouts x profiles table (`tests/unit/test_validate_ramdisk.
py`), written as a user writes it (a Metal3DataTemplate in CAPM3's language; the el10-only
rules on a template that declares `glean-el10`). Through event sources, broker, functions and
the BMO stand-in, every one stays paused with exactly one Warning that names its rule, gets no
Secret and is never released (resync ticks repeat nothing); a host on a layout the ramdisk does
bring up, in the same world, reaches `available`, so the world was serving all along.
"""

from __future__ import annotations

from typing import Any

import pytest
from kubernetes import client

from dhcpless import keys
from dhcpless_sandbox.demo.inventory import create
from dhcpless_sandbox.runtime.world import World
from tests.support import objects
from tests.support.waits import eventually, stays

NS = objects.NS
REF = "metal3datatemplates.infrastructure.cluster.x-k8s.io/"
ETH0 = {"type": "phy", "id": "eth0", "macAddress": {"string": objects.MAC}}
VLAN = {"id": "vlan100", "vlanID": 100, "vlanLink": "eth0", "macAddress": {"string": objects.MAC}}
POOL4B = objects.pool("pool4b", "192.168.20.10", "192.168.20.20", 24, "192.168.20.1", [])
POOL8 = objects.pool("pool8", "10.0.0.10", "10.0.0.20", 8, "10.0.0.1", [])


def _net(net_id: str, pool: str, link: str = "eth0", route: bool = True) -> dict[str, Any]:
    """A static network from `pool`; `route`: with a default route through its gateway."""
    family = "::" if "6" in pool else "0.0.0.0"
    routes = [{"network": family, "prefix": 0, "gateway": {"fromIPPool": pool}}] if route else []
    return {"id": net_id, "link": link, "ipAddressFromIPPool": pool, "routes": routes}


LAYOUTS: dict[str, tuple[dict[str, Any], str, str]] = {
    "bond-vlan": (objects.BOND_VLAN, "", "bond-ports"),
    "ipv6-only": (objects.IPV6, "", "ipv6-needs-ipv4"),
    "vlan-on-ipv6-only-nic": (
        {
            "links": {"ethernets": [ETH0], "vlans": [VLAN]},
            "networks": {
                "ipv4": [_net("n4", "pool4", "vlan100")],
                "ipv6": [_net("n6", "pool6", route=False)],
            },
        },
        "",
        "ipv6-needs-ipv4",
    ),
    "two-ipv4-one-link": (
        {
            "links": {"ethernets": [ETH0]},
            "networks": {"ipv4": [_net("a4", "pool4"), _net("b4", "pool4b", route=False)]},
        },
        "",
        "one-network-per-family",
    ),
    "mtu-1400": (
        {
            "links": {"ethernets": [{**ETH0, "mtu": 1400}]},
            "networks": {"ipv4": [_net("n4", "pool4")]},
        },
        "",
        "mtu-below-default",
    ),
    "slash8-route-el10": (
        {"links": {"ethernets": [ETH0]}, "networks": {"ipv4": [_net("n4", "pool8")]}},
        "glean-el10",
        "keyfile-route-prefix",
    ),
    "ipv4-slaac-el10": (
        {
            "links": {"ethernets": [ETH0]},
            "networks": {"ipv4": [_net("n4", "pool4")], "ipv6SLAAC": [{"id": "s", "link": "eth0"}]},
        },
        "glean-el10",
        "slaac-after-ipv4",
    ),
}  # fmt: skip
"""Host name -> (its template's networkData, the template's ramdisk profile, the rule)."""


def _objects() -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = [
        {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": NS}},
        *(objects.POOL4, objects.POOL6, POOL4B, POOL8),
        objects.data_template(objects.IPV4, "served"),
        objects.host("served", template=REF + "served"),
    ]
    for name, (data, profile, _) in LAYOUTS.items():
        found += [
            objects.data_template(data, name, profile),
            objects.host(name, template=REF + name),
        ]
    return found


def _hosts(api: client.ApiClient) -> dict[str, dict[str, Any]]:
    listed: Any = client.CustomObjectsApi(api).list_namespaced_custom_object(
        keys.BMO_GROUP, keys.BMO_VERSION, NS, "baremetalhosts"
    )
    return {h["metadata"]["name"]: h for h in listed["items"]}


def _warnings(api: client.ApiClient) -> dict[str, list[str]]:
    """Host -> the messages of its Warnings (InvalidNetworkData or any other)."""
    found: dict[str, list[str]] = {}
    for e in client.CoreV1Api(api).list_namespaced_event(NS).items:
        if e.type == "Warning":
            found.setdefault(e.involved_object.name or "", []).append(f"{e.reason}: {e.message}")
    return found


def _secrets(api: client.ApiClient) -> set[str]:
    listed = client.CoreV1Api(api).list_namespaced_secret(NS).items
    return {s.metadata.name or "" for s in listed if s.metadata is not None}


def _held(api: client.ApiClient) -> bool:
    """Every refused host paused, unnamed, never inspected, with no Secret."""
    hosts, secrets = _hosts(api), _secrets(api)
    return all(
        hosts[n]["metadata"]["annotations"].get(keys.PAUSED_ANNOTATION)
        == keys.PREPROVISIONING_PAUSE
        and not hosts[n]["spec"].get("preprovisioningNetworkDataName")
        and not (hosts[n].get("status") or {}).get("provisioning", {}).get("state")
        and n + keys.SECRET_NAME_SUFFIX not in secrets
        for n in LAYOUTS
    )


@pytest.mark.slow
def test_every_refused_layout_stays_paused_with_one_warning(world: World) -> None:
    api = world.api_client()
    create(api, _objects())

    def served() -> bool:
        state = (_hosts(api)["served"].get("status") or {}).get("provisioning", {}).get("state")
        return bool(state == keys.ProvisioningState.AVAILABLE)

    eventually(served, 60, "the served host available")
    eventually(lambda: set(LAYOUTS) <= set(_warnings(api)), 30, "a Warning on each refused host")
    stays(lambda: _held(api), 3.0, "every refused host stays paused, with no Secret")
    warnings = _warnings(api)
    for name, (_, _, rule) in LAYOUTS.items():
        (only,) = warnings[name]  # resync ticks repeat no Warning
        assert only.startswith("InvalidNetworkData: ") and f"({rule})" in only, (name, only)
    assert "served" not in warnings
