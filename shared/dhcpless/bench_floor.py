"""The floor: the reads and writes the work needs for N hosts, issued back to back by one client.

Per host: reads of the BareMetalHost, its data template and each pool (`pools + 2`), then one
IPClaim per pool, one Secret, one JSON patch of the BareMetalHost (`pools + 2` writes) — the
same sizes of object the functions write, with names of their own (`-floor`) and none of our
labels, so no source or Trigger sends them anywhere. Run against the same sandbox after the
stand-ins and sources are stopped, it is what the batch would cost with zero overhead;
`floor_seconds_per_host` is its time divided by the hosts.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from kubernetes import client

from dhcpless import keys

_ANNOTATION = "bench.dhcpless.metal3.io~1floor"


def run_floor(
    api: client.ApiClient, namespace: str, hosts: Sequence[str], pools: int, template: str
) -> float:
    """Seconds for `pools + 2` reads and `pools + 2` writes per host, sequentially."""
    custom, core = client.CustomObjectsApi(api), client.CoreV1Api(api)
    started = time.monotonic()
    for name in hosts:
        _read(custom, namespace, name, pools, template)
        for k in range(pools):
            custom.create_namespaced_custom_object(
                keys.IPAM_GROUP, keys.IPAM_VERSION, namespace, "ipclaims", _claim(name, k)
            )
        core.create_namespaced_secret(namespace, _secret(name))
        patch = [{"op": "add", "path": f"/metadata/annotations/{_ANNOTATION}", "value": "1"}]
        custom.patch_namespaced_custom_object(
            keys.BMO_GROUP, keys.BMO_VERSION, namespace, "baremetalhosts", name, patch,
            _content_type="application/json-patch+json",
        )  # fmt: skip
    return time.monotonic() - started


def _read(
    custom: client.CustomObjectsApi, namespace: str, host: str, pools: int, template: str
) -> None:
    custom.get_namespaced_custom_object(
        keys.BMO_GROUP, keys.BMO_VERSION, namespace, "baremetalhosts", host
    )
    custom.get_namespaced_custom_object(
        keys.CAPM3_GROUP, keys.CAPM3_VERSION, namespace, "metal3datatemplates", template
    )
    for k in range(pools):
        custom.get_namespaced_custom_object(
            keys.IPAM_GROUP, keys.IPAM_VERSION, namespace, "ippools", f"pool-{k}"
        )


def _claim(host: str, k: int) -> dict[str, object]:
    return {
        "apiVersion": f"{keys.IPAM_GROUP}/{keys.IPAM_VERSION}",
        "kind": "IPClaim",
        "metadata": {"name": f"{host}-pool-{k}-floor"},
        "spec": {"pool": {"name": f"pool-{k}"}},
    }


def _secret(host: str) -> client.V1Secret:
    data: dict[str, bytes | str] = {
        keys.NETWORK_DATA_KEY: "eyJsaW5rcyI6IFtdLCAibmV0d29ya3MiOiBbXX0="
    }
    return client.V1Secret(metadata=client.V1ObjectMeta(name=f"{host}-floor"), data=data)
