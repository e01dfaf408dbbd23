"""The demo's inventory: what an operator would create to get N hosts pre-provisioned.

Exists apart from the demo runner so tests and the sandbox examples can build the same objects:
a namespace, an IPPool, a Metal3DataTemplate whose networkData takes the address, gateway and
DNS from that pool, a Metal3MachineTemplate whose hostSelector matches the hosts, and N paused
BareMetalHosts with distinct boot MACs. With two hosts or more, the last one names our own
Metal3PreprovisioningDataTemplate (same network data) in the reference annotation: the
annotation wins over the hostSelector it also matches. `create` sends them through the
official client.
"""

from __future__ import annotations

from typing import Any, cast

from kubernetes import client

from dhcpless import keys
from dhcpless_sandbox.eventing.source_events import guess_plural

NAMESPACE, POOL, TEMPLATE, ROLE = "demo", "provisioning", "preprov", "worker"
PREPROVISIONING_TEMPLATE = "preprov-annotated"
_PDT_PLURAL = "metal3preprovisioningdatatemplates"
_CAPM3 = f"{keys.CAPM3_GROUP}/{keys.CAPM3_VERSION}"


def inventory(hosts: int, namespace: str = NAMESPACE) -> list[dict[str, Any]]:
    """The demo's objects, in creation order; hosts get MACs 52:54:00:00:xx:yy."""
    meta = {"namespace": namespace}
    pool_spec = {
        "namePrefix": POOL,
        "pools": [_entry(111, {}), *_more(hosts)],
        "prefix": 24,
        "gateway": "192.168.111.1",
        "dnsServers": ["192.168.111.1"],
    }
    return [
        {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": namespace}},
        kube_object(f"{keys.IPAM_GROUP}/{keys.IPAM_VERSION}", "IPPool", POOL, meta, pool_spec),
        kube_object(_CAPM3, "Metal3DataTemplate", TEMPLATE, meta, {"networkData": _network_data()}),
        machine_template(namespace, TEMPLATE),
        _preprovisioning_template(namespace),
        *(_annotated(host(i, namespace)) if i == hosts - 1 > 0 else host(i, namespace)
          for i in range(hosts)),
    ]  # fmt: skip


def _preprovisioning_template(namespace: str) -> dict[str, Any]:
    spec = {"preprovisioningNetworkData": _network_data()}
    kind = "Metal3PreprovisioningDataTemplate"
    return kube_object(_CAPM3, kind, PREPROVISIONING_TEMPLATE, {"namespace": namespace}, spec)


def _annotated(obj: dict[str, Any]) -> dict[str, Any]:
    """The host names its template; it still matches the hostSelector (the annotation wins)."""
    reference = f"{_PDT_PLURAL}.{keys.CAPM3_GROUP}/{PREPROVISIONING_TEMPLATE}"
    obj["metadata"]["annotations"][keys.TEMPLATE_REFERENCE_ANNOTATION] = reference
    return obj


def _more(hosts: int) -> list[dict[str, Any]]:
    """Further /24s, each with its own gateway, when one (235 addresses) is not enough."""
    extra = max(0, hosts - 1) // 235
    return [_entry(n, {"prefix": 24, "gateway": f"192.168.{n}.1"}) for n in range(112, 112 + extra)]


def _entry(n: int, extra: dict[str, Any]) -> dict[str, Any]:
    """192.168.n.20-254: the end is explicit, so the broadcast address is never handed out."""
    bounds = {"start": f"192.168.{n}.20", "end": f"192.168.{n}.254"}
    return {"subnet": f"192.168.{n}.0/24", **bounds, **extra}


def _network_data() -> dict[str, Any]:
    """One NIC (`eno1`), its IPv4 address, default route and DNS all from the demo pool."""
    route = {"network": "0.0.0.0", "prefix": 0, "gateway": {"fromIPPool": POOL}}
    network = {"id": "provisioning", "link": "eno1", "ipAddressFromIPPool": POOL}
    nic = {"type": "phy", "id": "eno1", "macAddress": {"fromHostInterface": "eno1"}}
    return {
        "links": {"ethernets": [nic]},
        "networks": {"ipv4": [{**network, "routes": [route]}]},
        "services": {"dnsFromIPPool": POOL},
    }


def host(index: int, namespace: str = NAMESPACE) -> dict[str, Any]:
    """A paused BareMetalHost with a virtual-media BMC and a boot MAC."""
    obj = kube_object(
        "metal3.io/v1alpha1",
        "BareMetalHost",
        f"host-{index:03d}",
        {"namespace": namespace},
        {
            "online": True,
            "bootMACAddress": f"52:54:00:00:{index // 256:02x}:{index % 256:02x}",
            "bmc": {
                "address": f"redfish-virtualmedia://192.168.111.1:8000/redfish/v1/Systems/{index}",
                "credentialsName": "bmc-secret",
            },
        },
    )
    obj["metadata"]["labels"] = {"role": ROLE}
    obj["metadata"]["annotations"] = {keys.PAUSED_ANNOTATION: keys.PREPROVISIONING_PAUSE}
    return obj


def machine_template(namespace: str, template: str) -> dict[str, Any]:
    """A Metal3MachineTemplate whose hostSelector (`role: ROLE`) leads to `template`."""
    spec = {
        "dataTemplate": {"name": template},
        "hostSelector": {"matchLabels": {"role": ROLE}},
        "image": {"url": "http://images.example/os.qcow2", "checksum": "sha256:0"},
    }
    meta = {"namespace": namespace}
    return kube_object(_CAPM3, "Metal3MachineTemplate", ROLE, meta, {"template": {"spec": spec}})


def kube_object(
    api_version: str, kind: str, name: str, meta: dict[str, Any], spec: dict[str, Any]
) -> dict[str, Any]:
    """A namespaced object with a spec, as the inventories build them."""
    return {
        "apiVersion": api_version,
        "kind": kind,
        "metadata": {"name": name, **meta},
        "spec": spec,
    }


def create(api: client.ApiClient, objects: list[dict[str, Any]]) -> None:
    """Create objects through the official client (what `kubectl create` does)."""
    core, custom = client.CoreV1Api(api), client.CustomObjectsApi(api)
    for obj in objects:
        if obj["kind"] == "Namespace":
            core.create_namespace(cast(Any, obj))
            continue
        group, version = obj["apiVersion"].split("/")
        custom.create_namespaced_custom_object(
            group, version, obj["metadata"]["namespace"], guess_plural(obj["kind"]), obj
        )
