"""Builders for the Kubernetes objects the chain tests use (plain dicts, as a user writes them).

Shared by the unit, function and end-to-end tests of the chain. Network-data variants cover
IPv4, IPv6, dual stack, a bond with a VLAN on top, and a template that references no pool.
"""

from __future__ import annotations

from typing import Any

from dhcpless import keys

NS = "metal3"
MAC = "52:54:00:aa:bb:01"
Obj = dict[str, Any]


def host(
    name: str = "host-0",
    pause: str | None = keys.PREPROVISIONING_PAUSE,
    data_name: str = "",
    template: str | None = "metal3datatemplates.infrastructure.cluster.x-k8s.io/tmpl",
    labels: dict[str, str] | None = None,
    bmc: str = "",
) -> Obj:
    """`bmc`: the host's `spec.bmc.address` (none: no BMC details)."""
    annotations = {} if pause is None else {keys.PAUSED_ANNOTATION: pause}
    if template is not None:
        annotations[keys.TEMPLATE_REFERENCE_ANNOTATION] = template
    spec: Obj = {"online": True, "bootMACAddress": MAC}
    if data_name:
        spec["preprovisioningNetworkDataName"] = data_name
    if bmc:
        spec["bmc"] = {"address": bmc, "credentialsName": f"{name}-bmc"}
    metadata = {"name": name, "namespace": NS, "annotations": annotations, "labels": labels or {}}
    return {
        "apiVersion": "metal3.io/v1alpha1",
        "kind": "BareMetalHost",
        "metadata": metadata,
        "spec": spec,
    }


def data_template(network_data: Obj, name: str = "tmpl", profile: str = "") -> Obj:
    """`profile`: the template's ramdisk profile annotation (none: the fleet's ramdisk)."""
    annotations = {keys.RAMDISK_PROFILE_ANNOTATION: profile} if profile else {}
    return {
        "apiVersion": f"{keys.CAPM3_GROUP}/{keys.CAPM3_VERSION}",
        "kind": "Metal3DataTemplate",
        "metadata": {"name": name, "namespace": NS, "annotations": annotations},
        "spec": {"clusterName": "c1", "networkData": network_data},
    }


def machine_template(name: str, data_template_name: str, match: dict[str, str]) -> Obj:
    spec = {"dataTemplate": {"name": data_template_name}, "hostSelector": {"matchLabels": match}}
    return {
        "apiVersion": f"{keys.CAPM3_GROUP}/{keys.CAPM3_VERSION}",
        "kind": "Metal3MachineTemplate",
        "metadata": {"name": name, "namespace": NS},
        "spec": {"template": {"spec": {**spec, "image": {"url": "http://i/x", "checksum": "x"}}}},
    }


def pool(name: str, start: str, end: str, prefix: int, gateway: str, dns: list[str]) -> Obj:
    return {
        "apiVersion": f"{keys.IPAM_GROUP}/{keys.IPAM_VERSION}",
        "kind": "IPPool",
        "metadata": {"name": name, "namespace": NS},
        "spec": {
            "pools": [{"start": start, "end": end}],
            "prefix": prefix,
            "gateway": gateway,
            "dnsServers": dns,
            "namePrefix": name,
        },
    }


POOL4 = pool("pool4", "192.168.10.10", "192.168.10.20", 24, "192.168.10.1", ["8.8.8.8"])
POOL6 = pool("pool6", "2001:db8::10", "2001:db8::20", 64, "2001:db8::1", ["2001:4860::8888"])


def _eth(link_id: str = "eth0") -> Obj:
    return {"type": "phy", "id": link_id, "macAddress": {"string": MAC}}


def _static(kind: str, pool_name: str, link: str, gateway: bool = True) -> Obj:
    route: Obj = {"network": "0.0.0.0" if kind == "4" else "::", "prefix": 0}
    if gateway:
        route["gateway"] = {"fromIPPool": pool_name}
    return {"id": f"net{kind}", "link": link, "ipAddressFromIPPool": pool_name, "routes": [route]}


IPV4: Obj = {
    "links": {"ethernets": [_eth()]},
    "networks": {"ipv4": [_static("4", "pool4", "eth0")]},
    "services": {"dnsFromIPPool": "pool4"},
}
IPV6: Obj = {
    "links": {"ethernets": [_eth()]},
    "networks": {"ipv6": [_static("6", "pool6", "eth0")]},
}
DUAL: Obj = {
    "links": {"ethernets": [_eth()]},
    "networks": {"ipv4": [_static("4", "pool4", "eth0")], "ipv6": [_static("6", "pool6", "eth0")]},
    "services": {"dns": ["1.1.1.1"]},
}
BOND_VLAN: Obj = {
    "links": {
        "ethernets": [
            _eth("eth0"),
            {"type": "phy", "id": "eth1", "macAddress": {"string": "52:54:00:aa:bb:02"}},
        ],
        "bonds": [
            {
                "id": "bond0",
                "bondMode": "802.3ad",
                "bondXmitHashPolicy": "layer3+4",
                "bondLinks": ["eth0", "eth1"],
                "macAddress": {"string": MAC},
            }
        ],
        "vlans": [
            {"id": "vlan100", "vlanID": 100, "vlanLink": "bond0", "macAddress": {"string": MAC}}
        ],
    },
    "networks": {"ipv4": [_static("4", "pool4", "vlan100")]},
}
NO_POOLS: Obj = {
    "links": {"ethernets": [_eth()]},
    "networks": {"ipv4DHCP": [{"id": "dhcp4", "link": "eth0"}]},
    "services": {"dns": ["9.9.9.9"]},
}

VALID_NETWORK_DATA = (
    '{"links": [{"id": "eth0", "type": "phy", "ethernet_mac_address": "' + MAC + '"}], '
    '"networks": [{"id": "dhcp4", "type": "ipv4_dhcp", "link": "eth0", "network_id": "dhcp4"}], '
    '"services": []}'
)
"""OpenStack network data (JSON) that passes every pre-unpause rule for `host()`: its boot
NIC by MAC, with DHCP on it (a DHCP-only document, as a template without pools renders)."""


def labels_of(host: str) -> dict[str, str]:
    """The labels our chain puts on the claims it makes for `host`."""
    return {
        keys.HOST_LABEL: host,
        keys.HOST_NAMESPACE_LABEL: NS,
        keys.MANAGED_BY_LABEL: keys.MANAGED_BY_VALUE,
    }


def claim(name: str, pool: str, owner_uid: str, host: str = "host-0") -> Obj:
    """A claim with our labels for `host`, owned by the host of `owner_uid`, with IPAM's
    finalizer (so deleting it leaves it terminating until IPAM lets go)."""
    owner = {
        "apiVersion": f"{keys.BMO_GROUP}/{keys.BMO_VERSION}",
        "kind": "BareMetalHost",
        "name": host,
        "uid": owner_uid,
    }
    return {
        "apiVersion": f"{keys.IPAM_GROUP}/{keys.IPAM_VERSION}",
        "kind": "IPClaim",
        "metadata": {
            "name": name,
            "namespace": NS,
            "labels": labels_of(host),
            "ownerReferences": [owner],
            "finalizers": [keys.IPAM_CLAIM_FINALIZER],
        },
        "spec": {"pool": {"name": pool, "namespace": NS}},
    }
