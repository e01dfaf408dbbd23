"""The CAPM3 stand-in's Metal3Data steps: the Metal3Data of a host and one pool's claim lookup.

Exists apart from the controller (`capm3`) to keep each small; the controller keeps the
counters, these return what happened. Upstream (cluster-api-provider-metal3):

* `baremetal/metal3machine_manager.go` `Associate`, `AssociateM3Metadata`: the Metal3Machine,
  the host's `spec.consumerRef`, the Metal3DataClaim;
  `baremetal/metal3datatemplate_manager.go` `createData`: the Metal3Data `<template>-<index>`,
  the lowest index no Metal3Data of the template has.
* `baremetal/metal3data_manager.go` `ensureM3IPClaim`: GET `<metal3data>-<pool>`, else
  `<bmh>-<pool>`, else create; `addressFromM3Claim`: a claim without the Metal3Data's UID among
  its owners is waited on (one being deleted first loses CAPM3's finalizer), a claim of its own
  with `status.errorMessage` fails the Metal3Data, one without an address is waited on.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kubernetes.client.exceptions import ApiException

from dhcpless import keys
from dhcpless_sandbox.controllers.custom_objects import CustomObjects
from dhcpless_sandbox.standins import capm3_objects as objects
from dhcpless_sandbox.standins.capm3_objects import CAPM3, machine_name, owned_by

Obj = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Looked:
    """One pool's look: the IPAddress, or why there is none yet."""

    address: Obj | None = None
    created: str = ""
    """The claim CAPM3 made of its own (nothing found under either name)."""
    blocked: str = ""
    """A claim found under the name, not owned by the Metal3Data: waited on."""
    failed: str = ""
    """The Metal3Data's `status.errorMessage` (its claim failed)."""


def metal3data(
    hosts: CustomObjects, capm3: CustomObjects, namespace: str, host: str, template: str
) -> Obj | None:
    """Metal3Machine, consumerRef, Metal3DataClaim, Metal3Data: each made once (None: the
    Metal3Data's name was taken meanwhile; the next look takes the next index)."""
    machine = _ensure(capm3, "metal3machines", objects.metal3machine(namespace, host, template))
    ref = {"apiVersion": CAPM3, "kind": "Metal3Machine", "name": machine_name(host),
           "namespace": namespace}  # fmt: skip
    hosts.patch("baremetalhosts", namespace, host, {"spec": {"consumerRef": ref}})
    claim = _ensure(capm3, "metal3dataclaims", objects.data_claim(machine))
    listed = capm3.list_items("metal3datas", namespace)
    mine = [d for d in listed if d["spec"]["claim"]["name"] == claim["metadata"]["name"]]
    if mine:
        return mine[0]
    name = claim["spec"]["template"]["name"]
    taken = {int(d["spec"]["index"]) for d in listed if d["spec"]["template"]["name"] == name}
    body = objects.metal3data(claim, machine, objects.lowest_free(taken))
    try:
        capm3.create("metal3datas", namespace, body)
    except ApiException as error:
        if error.status != 409:
            raise
        return None
    return capm3.get("metal3datas", namespace, body["metadata"]["name"])


def _ensure(capm3: CustomObjects, plural: str, body: Obj) -> Obj:
    meta = body["metadata"]
    found = capm3.get(plural, meta["namespace"], meta["name"])
    if found is None:
        capm3.create(plural, meta["namespace"], body)
        found = capm3.get(plural, meta["namespace"], meta["name"])
    assert found is not None, f"{plural} {meta['name']} vanished after its create"
    return found


def address(
    ipam: CustomObjects,
    capm3: CustomObjects,
    host: str,
    pool: str,
    data: Obj,
    *,
    by_host: bool = False,
) -> Looked:
    """`ensureM3IPClaim` then `addressFromM3Claim` for one pool."""
    namespace, name = data["metadata"]["namespace"], data["metadata"]["name"]
    claim = ipam.get("ipclaims", namespace, f"{name}-{pool}")
    claim = claim or ipam.get("ipclaims", namespace, f"{host}-{pool}")
    if claim is None:
        body = objects.ip_claim(data, pool, host, by_host=by_host)
        try:
            ipam.create("ipclaims", namespace, body)
        except ApiException as error:
            if error.status != 409:
                raise
        return Looked(created=body["metadata"]["name"])
    if not owned_by(claim, data["metadata"].get("uid", "")):
        if claim["metadata"].get("deletionTimestamp"):  # an old one: CAPM3's finalizer goes
            ipam.remove_finalizer("ipclaims", claim, keys.CAPM3_DATA_FINALIZER)
        return Looked(blocked=claim["metadata"]["name"])
    failure = (claim.get("status") or {}).get("errorMessage")
    if failure:
        message = f"IP Allocation for {pool} failed : {failure}"
        capm3.patch_status("metal3datas", namespace, name, {"errorMessage": message})
        return Looked(failed=message)
    ref = (claim.get("status") or {}).get("address")
    return Looked(ipam.get("ipaddresses", namespace, ref["name"]) if ref else None)
