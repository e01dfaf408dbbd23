"""An independent observer of the chain's invariants: it watches the API, it trusts no function.

Exists so the chaos demo's violation counters mean something: they are computed from what the
API shows over time, by code that shares nothing with the chain's decisions. It watches
BareMetalHosts (every change, as a reflector, which also keeps the live hosts: `live`) and
samples claims, addresses and Secrets:

* `double_allocations`: an address bound to two live hosts at once (through their claims'
  IPAddresses, or written in their network-data Secrets);
* `foreign_pauses_removed`: a host paused with someone else's value seen without it;
* `overwritten_network_data_names`: a host whose user-set Secret name was seen changed;
* `unpaused_without_valid_data`: a host seen with our pause, then without any pause, whose
  named Secret is missing, not JSON, has no NIC with the boot MAC, or carries an address its
  claims were not given;
* `leaked_objects` (on demand): claims, addresses or Secrets left for hosts that are gone.
"""

from __future__ import annotations

import base64
import json
import threading
from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from kubernetes import client

from dhcpless import keys
from dhcpless_sandbox.controllers.custom_objects import CustomObjects
from dhcpless_sandbox.controllers.reflector import Reflector, WatchedResource, WatchEvent
from dhcpless_sandbox.observe.live import LiveHosts

JSON = dict[str, Any]


class Observer:
    """Start it before the hosts exist; read `violations()` at the end."""

    def __init__(self, api: client.ApiClient, namespace: str, *, period: float = 0.5) -> None:
        self._api, self._namespace, self._period = api, namespace, period
        self._bmo = CustomObjects(api, keys.BMO_GROUP, keys.BMO_VERSION)
        self._ipam = CustomObjects(api, keys.IPAM_GROUP, keys.IPAM_VERSION)
        self.foreign: dict[str, str] = {}
        self.named: dict[str, str] = {}
        self.found: dict[str, set[str]] = defaultdict(set)
        self._checked: set[str] = set()
        self._ours: set[str] = set()
        self._live = LiveHosts()
        self._lock, self._stop = threading.Lock(), threading.Event()
        resource = WatchedResource(
            f"{keys.BMO_GROUP}/{keys.BMO_VERSION}", "BareMetalHost", "baremetalhosts"
        )
        self._reflector = Reflector(api, resource, self._on_host, self._live.listed)
        self._sampler = threading.Thread(target=self._sample_loop, daemon=True, name="observer")

    def expect(self, hosts: Iterable[JSON]) -> None:
        """Remember the foreign pause values and user-set names among hosts about to exist."""
        for host in hosts:
            name, annotations = host["metadata"]["name"], host["metadata"].get("annotations", {})
            pause = annotations.get(keys.PAUSED_ANNOTATION)
            if pause is not None and pause != keys.PREPROVISIONING_PAUSE:
                self.foreign[name] = pause
            if host["spec"].get("preprovisioningNetworkDataName"):
                self.named[name] = host["spec"]["preprovisioningNetworkDataName"]

    def start(self) -> None:
        self._reflector.start()
        self._reflector.wait_synced(10)
        self._sampler.start()

    def stop(self) -> None:
        self._stop.set()
        self._reflector.stop()
        self._sampler.join(timeout=5)
        self.sample()

    def violations(self) -> dict[str, int]:
        kinds = ("double_allocations", "foreign_pauses_removed", "overwritten_network_data_names")
        with self._lock:
            counts = {kind: len(self.found[kind]) for kind in kinds}
            return counts | {"unpaused_without_valid_data": len(self.found["unpaused_invalid"])}

    def _flag(self, kind: str, what: str) -> None:
        with self._lock:
            self.found[kind].add(what)

    def live(self) -> set[str]:
        """The hosts that exist and are not being deleted, as last listed and watched."""
        return self._live.names()

    # --- every host change -------------------------------------------------------------------
    def _on_host(self, kind: WatchEvent, host: JSON) -> None:
        self._live.changed(kind, host)
        if kind is WatchEvent.DELETED:
            return
        name, annotations = host["metadata"]["name"], host["metadata"].get("annotations") or {}
        if name in self.foreign and annotations.get(keys.PAUSED_ANNOTATION) != self.foreign[name]:
            self._flag("foreign_pauses_removed", name)
        data_name = host["spec"].get("preprovisioningNetworkDataName")
        if name in self.named and data_name != self.named[name]:
            self._flag("overwritten_network_data_names", name)
        if annotations.get(keys.PAUSED_ANNOTATION) == keys.PREPROVISIONING_PAUSE:
            self._ours.add(name)  # only our pause's removal is judged below
        elif name in self._ours and name not in self._checked:
            self._checked.add(name)
            if not self._valid_data(host, data_name or ""):
                self._flag("unpaused_invalid", name)

    def _valid_data(self, host: JSON, secret_name: str) -> bool:
        document = self._network_data(secret_name)
        if not isinstance(document, dict):
            return False
        mac = (host["spec"].get("bootMACAddress") or "").lower()
        links = document.get("links") or []
        boot = [
            link.get("id") for link in links if str(link.get("ethernet_mac_address")).lower() == mac
        ]
        given = set(self._claimed(host["metadata"]["name"]).values())
        used = {n.get("ip_address") for n in document.get("networks") or [] if n.get("ip_address")}
        return bool(boot) and used <= given

    def _network_data(self, name: str) -> Any:
        try:
            secret = client.CoreV1Api(self._api).read_namespaced_secret(name, self._namespace)
            return json.loads(base64.b64decode((secret.data or {})[keys.NETWORK_DATA_KEY]))
        except (client.ApiException, KeyError, TypeError, ValueError):
            return None

    def _claimed(self, host: str) -> dict[str, str]:
        """IPAddress name -> address, for the live claims of one host (its claims by label,
        as `_host_of` reads them: not every claim of the namespace once per host)."""
        selector = f"{keys.MANAGED_BY_LABEL}={keys.MANAGED_BY_VALUE},{keys.HOST_LABEL}={host}"
        claims = self._ipam.list_items("ipclaims", self._namespace, selector)
        mine = {c["metadata"]["name"] for c in claims if _host_of(c) == host}
        addresses = self._ipam.list_items("ipaddresses", self._namespace)
        return {
            a["metadata"]["name"]: a["spec"]["address"]
            for a in addresses
            if a["spec"].get("claim", {}).get("name") in mine
        }

    # --- periodic samples ----------------------------------------------------------------------
    def _sample_loop(self) -> None:
        while not self._stop.wait(self._period):
            self.sample()

    def sample(self) -> None:
        """One look at who holds which address: claims' IPAddresses and Secrets' documents."""
        live = self.live()
        holders: dict[str, set[str]] = defaultdict(set)
        claims = {
            c["metadata"]["name"]: _host_of(c)
            for c in self._ipam.list_items("ipclaims", self._namespace)
        }
        for address in self._ipam.list_items("ipaddresses", self._namespace):
            owner = claims.get(address["spec"].get("claim", {}).get("name"), "")
            if owner in live:
                holders[address["spec"]["address"]].add(owner)
        for owner, ips in self._secret_addresses().items():
            for ip in ips if owner in live else ():
                holders[ip].add(owner)
        for ip, owners in holders.items():
            if len(owners) > 1:
                self._flag("double_allocations", ip)

    def _secret_addresses(self) -> dict[str, set[str]]:
        """Addresses in the Secrets the chain's writer wrote (`keys.WRITER_RELEASES_LABEL`). A
        Secret someone else wrote under our name and labels (a forgery, issue 24) binds no
        address by existing; were a host released on it, `unpaused_without_valid_data` (an
        address its claims were not given) and the wire judge would count it."""
        selector = (
            f"{keys.MANAGED_BY_LABEL}={keys.MANAGED_BY_VALUE},"
            f"{keys.WRITER_RELEASES_LABEL}={keys.WRITER_RELEASES_VALUE}"
        )
        secrets = client.CoreV1Api(self._api).list_namespaced_secret(
            self._namespace, label_selector=selector
        )
        found: dict[str, set[str]] = defaultdict(set)
        for secret in secrets.items:
            owner = _labels(secret).get(keys.HOST_LABEL, "")
            try:
                document = json.loads(base64.b64decode((secret.data or {})[keys.NETWORK_DATA_KEY]))
            except (KeyError, ValueError):
                continue
            found[owner] |= {
                n["ip_address"] for n in document.get("networks", []) if "ip_address" in n
            }
        return found

    def leaked(self, gone: Iterable[str]) -> int:
        """Claims, IPAddresses and Secrets still there for hosts that were deleted."""
        gone = set(gone)
        claims = [
            c for c in self._ipam.list_items("ipclaims", self._namespace) if _host_of(c) in gone
        ]
        names = {c["metadata"]["name"] for c in claims}
        addresses = [
            a
            for a in self._ipam.list_items("ipaddresses", self._namespace)
            if a["spec"].get("claim", {}).get("name") in names
            or a["spec"].get("claim", {}).get("name", "").rsplit("-", 1)[0] in gone
        ]
        secrets = client.CoreV1Api(self._api).list_namespaced_secret(self._namespace).items
        left = [s for s in secrets if _labels(s).get(keys.HOST_LABEL) in gone]
        return len(claims) + len(addresses) + len(left)


def _labels(secret: client.V1Secret) -> dict[str, str]:
    return dict((secret.metadata.labels if secret.metadata else None) or {})


def _host_of(obj: JSON) -> str:
    labels = obj["metadata"].get("labels") or {}
    if labels.get(keys.MANAGED_BY_LABEL) != keys.MANAGED_BY_VALUE:
        return ""
    return str(labels.get(keys.HOST_LABEL, ""))
