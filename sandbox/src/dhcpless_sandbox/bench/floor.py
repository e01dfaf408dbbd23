"""The floor: the reads and writes the work needs for one host, issued back to back by one client.

Per host: reads of the BareMetalHost, its data template and each pool (`pools + 2`), then one
IPClaim per pool, one Secret, one JSON patch of the BareMetalHost (`pools + 2` writes) — the
same sizes of object the functions write, with names of their own (`-floor`) and none of our
labels, so no source or Trigger sends them anywhere. `one_host` is that sequence; it is issued
in two settings: `run_floor`, against the same sandbox after the stand-ins and sources are
stopped (the idle floor: what the batch would cost with zero overhead on an idle server), and
`bench_floor_live`, sampled during the batch from a process of its own (the loaded floor that
`floor_seconds_per_host` reports: the same server under the same load as the functions).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from kubernetes import client

from dhcpless import keys

_ANNOTATION = "bench.dhcpless.metal3.io~1floor"


@dataclass(frozen=True)
class Where:
    """Namespaces of the floor: reads of the shared objects (template, pools) in `shared`;
    the host read and every write in `own` (the same namespace for the idle floor)."""

    shared: str
    own: str
    pools: int
    template: str


def run_floor(
    api: client.ApiClient, namespace: str, hosts: Sequence[str], pools: int, template: str
) -> float:
    """Seconds for `pools + 2` reads and `pools + 2` writes per host, sequentially."""
    custom, core = client.CustomObjectsApi(api), client.CoreV1Api(api)
    where = Where(namespace, namespace, pools, template)
    started = time.monotonic()
    for name in hosts:
        one_host(custom, core, where, name, name)
    return time.monotonic() - started


def one_host(
    custom: client.CustomObjectsApi, core: client.CoreV1Api, where: Where, host: str, stem: str
) -> None:
    """The host's floor: its reads, then its writes; new objects are named after `stem`."""
    _read(custom, where, host)
    for k in range(where.pools):
        custom.create_namespaced_custom_object(
            keys.IPAM_GROUP, keys.IPAM_VERSION, where.own, "ipclaims", _claim(stem, k)
        )
    core.create_namespaced_secret(where.own, _secret(stem))
    patch = [{"op": "add", "path": f"/metadata/annotations/{_ANNOTATION}", "value": stem}]
    custom.patch_namespaced_custom_object(
        keys.BMO_GROUP, keys.BMO_VERSION, where.own, "baremetalhosts", host, patch,
        _content_type="application/json-patch+json",
    )  # fmt: skip


def _read(custom: client.CustomObjectsApi, where: Where, host: str) -> None:
    custom.get_namespaced_custom_object(
        keys.BMO_GROUP, keys.BMO_VERSION, where.own, "baremetalhosts", host
    )
    custom.get_namespaced_custom_object(
        keys.CAPM3_GROUP, keys.CAPM3_VERSION, where.shared, "metal3datatemplates", where.template
    )
    for k in range(where.pools):
        custom.get_namespaced_custom_object(
            keys.IPAM_GROUP, keys.IPAM_VERSION, where.shared, "ippools", f"pool-{k}"
        )


def _claim(stem: str, k: int) -> dict[str, object]:
    return {
        "apiVersion": f"{keys.IPAM_GROUP}/{keys.IPAM_VERSION}",
        "kind": "IPClaim",
        "metadata": {"name": f"{stem}-pool-{k}-floor"},
        "spec": {"pool": {"name": f"pool-{k}"}},
    }


def _secret(stem: str) -> client.V1Secret:
    data: dict[str, bytes | str] = {
        keys.NETWORK_DATA_KEY: "eyJsaW5rcyI6IFtdLCAibmV0d29ya3MiOiBbXX0="
    }
    return client.V1Secret(metadata=client.V1ObjectMeta(name=f"{stem}-floor"), data=data)
