"""The bench's inventory: the demo's, with `pools` IPPools big enough for thousands of hosts.

Exists apart from `demo_inventory` because the bench varies the pool count (each pool is one
IPClaim per host, the floor's `K`) and needs /16 pools; the hosts themselves are the demo's.
Pool 0 is IPv4 (10.0.0.0/16) and carries the default route and DNS; pool `k` > 0 is IPv6
(fd00:k::/64) on the same NIC. Not a second IPv4 pool: glean's redhat writer (the CentOS Stream
IPA ramdisk's, which the BMO stand-in boots) writes one ifcfg file per NIC, so a second IPv4
network on it replaces the first (glean 1.25.1 `write_redhat_interfaces`).
"""

from __future__ import annotations

from typing import Any

from dhcpless import keys
from dhcpless_sandbox.demo.inventory import host, kube_object, machine_template

NAMESPACE, TEMPLATE = "bench", "bench"
_CAPM3 = f"{keys.CAPM3_GROUP}/{keys.CAPM3_VERSION}"
_IPAM = f"{keys.IPAM_GROUP}/{keys.IPAM_VERSION}"


def pool_name(index: int) -> str:
    return f"pool-{index}"


def setup(pools: int, namespace: str = NAMESPACE) -> list[dict[str, Any]]:
    """Namespace, pools, data template and machine template (no hosts)."""
    meta = {"namespace": namespace}
    return [
        {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": namespace}},
        *(kube_object(_IPAM, "IPPool", pool_name(k), meta, _pool(k)) for k in range(pools)),
        kube_object(_CAPM3, "Metal3DataTemplate", TEMPLATE, meta, {"networkData": _network(pools)}),
        machine_template(namespace, TEMPLATE),
    ]


def hosts(count: int, namespace: str = NAMESPACE) -> list[dict[str, Any]]:
    """`count` paused hosts (the demo's, with distinct boot MACs)."""
    return [host(index, namespace) for index in range(count)]


def _pool(k: int) -> dict[str, Any]:
    if k == 0:
        subnet, start, prefix, gateway = "10.0.0.0/16", "10.0.0.10", 16, "10.0.0.1"
    else:
        subnet, start, prefix, gateway = f"fd00:{k}::/64", f"fd00:{k}::10", 64, f"fd00:{k}::1"
    return {
        "namePrefix": pool_name(k),
        "pools": [{"subnet": subnet, "start": start}],
        "prefix": prefix,
        "gateway": gateway,
        "dnsServers": [gateway],
    }


def _network(pools: int) -> dict[str, Any]:
    """One NIC; pool 0's IPv4 network and one IPv6 network per other pool on it; default
    route and DNS from pool 0."""
    nic = {"type": "phy", "id": "eno1", "macAddress": {"fromHostInterface": "eno1"}}
    route = {"network": "0.0.0.0", "prefix": 0, "gateway": {"fromIPPool": pool_name(0)}}
    networks: list[dict[str, Any]] = [
        {"id": f"net-{k}", "link": "eno1", "ipAddressFromIPPool": pool_name(k)}
        for k in range(pools)
    ]
    networks[0]["routes"] = [route]
    return {
        "links": {"ethernets": [nic]},
        "networks": {"ipv4": networks[:1], "ipv6": networks[1:]},
        "services": {"dnsFromIPPool": pool_name(0)},
    }
