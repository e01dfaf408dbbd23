"""The objects the CAPM3 stand-in writes, shaped and named as CAPM3 writes them (pure builders).

Exists apart from the controller (`capm3`) so the names and owner chains of a provisioning run
are in one place and can be read against upstream (cluster-api-provider-metal3):

* Metal3Machine `<host>-m3m`: what a Machine's infrastructure object would be; its
  `spec.dataTemplate` names the provisioning Metal3DataTemplate.
* Metal3DataClaim named as the Metal3Machine, controller-owned by it
  (`baremetal/metal3machine_manager.go` `AssociateM3Metadata`).
* Metal3Data `<template>-<index>`, the lowest index no Metal3Data of the template has, whichever
  host it is for (`baremetal/metal3datatemplate_manager.go` `createData`); controller-owned by
  the Metal3DataClaim, also owned by the Metal3Machine, its labels the Metal3DataClaim's.
* IPClaim when neither `<metal3data>-<pool>` nor `<bmh>-<pool>` exists, controller-owned by the
  Metal3Data (`metal3data_manager.go` `ensureM3IPClaim`, `m3IPClaimObjectMeta`): named
  `<metal3data>-<pool>` with the Metal3Data's labels by default; with
  `--enable-bmh-name-based-preallocation`, named `<bmh>-<pool>` and labelled with the data and
  pool names (the only case in which CAPM3's claims carry those labels).
* the rendered networkData Secret `<metal3data>-networkdata` (`networkDataSuffix`,
  `createSecrets`), which BMH `spec.networkData` names (`metal3machine_manager.go`
  `setHostSpec`).
"""

from __future__ import annotations

import base64
import json
from collections.abc import Mapping
from typing import Any

from dhcpless import keys

Obj = dict[str, Any]
CAPM3 = f"{keys.CAPM3_GROUP}/{keys.CAPM3_VERSION}"
IMAGE = {"url": "http://images.example/os.qcow2", "checksum": "sha256:0", "format": "qcow2"}
"""The image the stand-in's Metal3Machines deploy (a deployed OS needs one, nothing more)."""
NETWORK_DATA_SUFFIX = "-networkdata"


def data_name(template: str, index: int) -> str:
    """`<template>-<index>` (`metal3datatemplate_manager.go` `createData`)."""
    return f"{template}-{index}"


def lowest_free(taken: set[int]) -> int:
    """The lowest index not in `taken` (`createData`: a gap first, else the next)."""
    return next(i for i in range(len(taken) + 1) if i not in taken)


def machine_name(host: str) -> str:
    return f"{host}-m3m"


def owner(kind: str, obj: Mapping[str, Any], *, controller: bool = True) -> Obj:
    meta = obj["metadata"]
    found = {"apiVersion": CAPM3, "kind": kind, "name": meta["name"], "uid": meta["uid"]}
    return found | ({"controller": True} if controller else {})


def metal3machine(namespace: str, host: str, template: str) -> Obj:
    spec = {"dataTemplate": {"name": template, "namespace": namespace}, "image": IMAGE}
    meta = {"name": machine_name(host), "namespace": namespace}
    return {"apiVersion": CAPM3, "kind": "Metal3Machine", "metadata": meta, "spec": spec}


def data_claim(machine: Mapping[str, Any]) -> Obj:
    meta = machine["metadata"]
    return {
        "apiVersion": CAPM3, "kind": "Metal3DataClaim",
        "metadata": {"name": meta["name"], "namespace": meta["namespace"],
                     "ownerReferences": [owner("Metal3Machine", machine)]},
        "spec": {"template": machine["spec"]["dataTemplate"]},
    }  # fmt: skip


def metal3data(claim: Mapping[str, Any], machine: Mapping[str, Any], index: int) -> Obj:
    meta, template = claim["metadata"], claim["spec"]["template"]
    owners = [owner("Metal3DataClaim", claim), owner("Metal3Machine", machine, controller=False)]
    return {
        "apiVersion": CAPM3, "kind": "Metal3Data",
        "metadata": {"name": data_name(template["name"], index), "namespace": meta["namespace"],
                     "labels": dict(meta.get("labels") or {}), "ownerReferences": owners},
        "spec": {"claim": {"name": meta["name"], "namespace": meta["namespace"]},
                 "template": template, "index": index},
    }  # fmt: skip


def ip_claim(data: Mapping[str, Any], pool: str, host: str = "", *, by_host: bool = False) -> Obj:
    """The IPClaim `m3IPClaimObjectMeta` writes: `<metal3data>-<pool>` with the Metal3Data's
    labels, or (`by_host`, the pre-allocation flag) `<bmh>-<pool>` with data and pool labels."""
    meta = data["metadata"]
    labels = dict(meta.get("labels") or {})
    if by_host:
        labels |= {keys.CAPM3_DATA_NAME_LABEL: meta["name"], keys.CAPM3_POOL_NAME_LABEL: pool}
    name = f"{host if by_host else meta['name']}-{pool}"
    return {
        "apiVersion": f"{keys.IPAM_GROUP}/{keys.IPAM_VERSION}", "kind": "IPClaim",
        "metadata": {"name": name, "namespace": meta["namespace"],
                     "labels": labels, "ownerReferences": [owner("Metal3Data", data)],
                     "finalizers": [keys.CAPM3_DATA_FINALIZER]},
        "spec": {"pool": {"name": pool, "namespace": meta["namespace"]}},
    }  # fmt: skip


def network_data_secret(data: Mapping[str, Any], document: Mapping[str, Any]) -> Obj:
    """The rendered networkData Secret, owned by the Metal3Data."""
    meta = data["metadata"]
    encoded = base64.b64encode(json.dumps(document, sort_keys=True).encode()).decode()
    return {
        "apiVersion": "v1", "kind": "Secret", "type": "Opaque",
        "metadata": {"name": meta["name"] + NETWORK_DATA_SUFFIX, "namespace": meta["namespace"],
                     "ownerReferences": [owner("Metal3Data", data, controller=False)]},
        "data": {keys.NETWORK_DATA_KEY: encoded},
    }  # fmt: skip


def owned_by(obj: Mapping[str, Any], uid: str) -> bool:
    """`addressFromM3Claim`'s test: one of the ownerReferences carries `uid`."""
    refs = obj["metadata"].get("ownerReferences") or []
    return any(ref.get("uid") == uid for ref in refs)
