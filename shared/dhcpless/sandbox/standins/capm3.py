"""CAPM3 stand-in: a provisioning run with CAPM3's claim lookup and ownership rules.

For every `available`, unpaused, unconsumed host of the namespace it plays what CAPM3 does when
a Machine picks the host (cluster-api-provider-metal3 `baremetal/metal3machine_manager.go`
`Associate`, `AssociateM3Metadata`): a Metal3Machine, `spec.consumerRef` to it, its
Metal3DataClaim, then the Metal3Data (`capm3_objects` has the shapes). Per pool it then follows
`baremetal/metal3data_manager.go` `ensureM3IPClaim`: GET `<metal3data>-<pool>`, else GET
`<bmh>-<pool>` (whatever the BMH-name pre-allocation flag says), else create one owned by the
Metal3Data. A claim is used only when one of its ownerReferences has the Metal3Data's UID
(`addressFromM3Claim`); any other claim of that name makes it requeue "hoping it will go away".
`requeues` counts those looks per Metal3Data (and `blocked` per claim). With every address,
it renders the provisioning template's networkData as the chain does (the same renderer, as
CAPM3's `renderNetworkData`), writes `<metal3data>-networkdata` and sets the host's
`spec.image` and `spec.networkData` (`setHostSpec`); BMO then deploys. `deployed` records the
address each host was provisioned with. `deprovision` undoes it as a Metal3Machine deletion.
"""

from __future__ import annotations

import logging
import threading
from collections import Counter
from collections.abc import Sequence
from typing import Any, cast

from kubernetes import client
from kubernetes.client.exceptions import ApiException

from dhcpless import keys
from dhcpless.keys import ProvisioningState
from dhcpless.sandbox.controllers.controller import Controller
from dhcpless.sandbox.controllers.custom_objects import CustomObjects
from dhcpless.sandbox.controllers.reflector import WatchedResource, WatchEvent
from dhcpless.sandbox.standins import capm3_objects as objects
from dhcpless.sandbox.standins import capm3_teardown as teardown
from dhcpless.sandbox.standins.bmh_status import provisioning_state
from dhcpless.sandbox.standins.capm3_objects import CAPM3, data_name, machine_name, owned_by
from dhcpless.sandbox.standins.capm3_render import network_data

__all__ = ["CAPM3Controller", "data_name", "machine_name"]

log = logging.getLogger(__name__)

HostKey = tuple[str, str]
Obj = dict[str, Any]
TEMPLATE = "preprov"
"""The Metal3DataTemplate the Metal3Machines name by default (the demo inventory's)."""
REQUEUE = 0.1
"""Seconds between looks while a claim is not usable yet (upstream: 30 s)."""


class CAPM3Controller(Controller[HostKey]):
    """Provisions available hosts; `deployed[host]` is `{pool: address}` once it could."""

    def __init__(
        self, api: client.ApiClient, pools: Sequence[str], template: str = TEMPLATE
    ) -> None:
        self._hosts = CustomObjects(api, keys.BMO_GROUP, keys.BMO_VERSION)
        self._ipam = CustomObjects(api, keys.IPAM_GROUP, keys.IPAM_VERSION)
        self._capm3 = CustomObjects(api, keys.CAPM3_GROUP, keys.CAPM3_VERSION)
        self._core = client.CoreV1Api(api)
        self.pools, self.template = tuple(pools), template
        self.claimed: set[str] = set()
        self.blocked: Counter[str] = Counter()
        self.requeues: Counter[str] = Counter()
        """Metal3Data name -> looks at a claim it could not use (not ours, no address yet)."""
        self.deployed: dict[str, dict[str, str]] = {}
        self.held: set[str] = set()
        """Hosts deprovisioned for good: no new Machine picks them."""
        self._lock = threading.Lock()
        gv = f"{keys.BMO_GROUP}/{keys.BMO_VERSION}"
        super().__init__(api, "capm3", [WatchedResource(gv, "BareMetalHost", "baremetalhosts")])

    def _on_event(self, kind: WatchEvent, obj: Obj) -> None:
        meta = obj.get("metadata", {})
        if kind is not WatchEvent.DELETED:
            self._queue.add((meta.get("namespace", ""), meta.get("name", "")))

    def reconcile(self, key: HostKey) -> float | None:
        namespace, name = key
        host = self._hosts.get("baremetalhosts", namespace, name)
        with self._lock:
            done = name in self.deployed or name in self.held
        if host is None or done or not _provisionable(host, machine_name(name)):
            return None
        data = self._metal3data(namespace, name)
        found = {pool: self._address(namespace, name, pool, data) for pool in self.pools}
        if any(a is None for a in found.values()):
            with self._lock:
                self.requeues[data["metadata"]["name"]] += 1
            return REQUEUE
        addresses = {pool: a for pool, a in found.items() if a is not None}
        self._set_host_spec(namespace, host, data, addresses)
        with self._lock:
            self.deployed[name] = {p: str(a["spec"]["address"]) for p, a in addresses.items()}
        return None

    def _metal3data(self, namespace: str, name: str) -> Obj:
        """Metal3Machine, consumerRef, Metal3DataClaim, Metal3Data: each made once."""
        machine = self._ensure(
            "metal3machines", objects.metal3machine(namespace, name, self.template)
        )
        ref = {"apiVersion": CAPM3, "kind": "Metal3Machine", "name": machine_name(name),
               "namespace": namespace}  # fmt: skip
        self._hosts.patch("baremetalhosts", namespace, name, {"spec": {"consumerRef": ref}})
        claim = self._ensure("metal3dataclaims", objects.data_claim(machine))
        return self._ensure("metal3datas", objects.metal3data(claim, name))

    def _ensure(self, plural: str, body: Obj) -> Obj:
        meta = body["metadata"]
        found = self._capm3.get(plural, meta["namespace"], meta["name"])
        if found is None:
            self._capm3.create(plural, meta["namespace"], body)
            found = self._capm3.get(plural, meta["namespace"], meta["name"])
        assert found is not None, f"{plural} {meta['name']} vanished after its create"
        return found

    def _address(self, namespace: str, host: str, pool: str, data: Obj) -> Obj | None:
        """`ensureM3IPClaim` then `addressFromM3Claim`: the IPAddress, or None to requeue."""
        claim = self._ipam.get("ipclaims", namespace, f"{data['metadata']['name']}-{pool}")
        claim = claim or self._ipam.get("ipclaims", namespace, f"{host}-{pool}")
        if claim is None:
            try:
                self._ipam.create("ipclaims", namespace, objects.ip_claim(data, pool))
            except ApiException as error:
                if error.status != 409:
                    raise
            with self._lock:
                self.claimed.add(f"{data['metadata']['name']}-{pool}")
            return None
        if not owned_by(claim, data["metadata"].get("uid", "")):
            log.info("IPClaim %s: same name, different UID; requeue", claim["metadata"]["name"])
            with self._lock:
                self.blocked[claim["metadata"]["name"]] += 1
            return None
        ref = (claim.get("status") or {}).get("address")
        return self._ipam.get("ipaddresses", namespace, ref["name"]) if ref else None

    def _set_host_spec(
        self, namespace: str, host: Obj, data: Obj, addresses: dict[str, Obj]
    ) -> None:
        """The rendered Secret, then `spec.image` and `spec.networkData` (`setHostSpec`)."""
        template = self._capm3.get("metal3datatemplates", namespace, self.template)
        document = network_data(template or {}, host, addresses)
        secret = objects.network_data_secret(data, document)
        try:
            self._core.create_namespaced_secret(namespace, cast(Any, secret))
        except ApiException as error:
            if error.status != 409:
                raise
        ref = {"name": secret["metadata"]["name"], "namespace": namespace}
        spec = {"image": objects.IMAGE, "networkData": ref}
        self._hosts.patch("baremetalhosts", namespace, host["metadata"]["name"], {"spec": spec})

    def deprovision(self, namespace: str, host: str, *, again: bool = True) -> None:
        """As CAPM3 on Metal3Machine deletion (`metal3machine_manager.go` `Delete`): the host's
        image, networkData and consumerRef go (BMO cleans), then the Metal3Data and its own
        claims (`releaseAddressFromM3Pool`). `again=False`: no Machine picks the host again."""
        with self._lock:
            self.deployed.pop(host, None)
            self.held |= set() if again else {host}
        teardown.release(self._hosts, self._ipam, self._capm3, namespace, host)


def _provisionable(host: Obj, machine: str) -> bool:
    """Available, not paused, and not consumed by another Machine."""
    annotations = host["metadata"].get("annotations") or {}
    consumer = ((host.get("spec") or {}).get("consumerRef") or {}).get("name", machine)
    return (
        keys.PAUSED_ANNOTATION not in annotations
        and provisioning_state(host) == ProvisioningState.AVAILABLE.value
        and consumer == machine
    )
