"""BMO stand-in (metal3.md §e): pause semantics, the preprovisioning Secret, a ramdisk boot.

What the functions depend on, and nothing more: a host with the paused annotation (any value)
is not touched. An unpaused host goes `registering`, where the Secret named by
`spec.preprovisioningNetworkDataName` must exist in the host's namespace (missing: a
`registration error`, retried on a backoff, because BMO does not watch un-owned Secrets; data
Ironic's schema refuses: no status at all, retried, as BMO does, see `ironic`), then
`inspecting`, where the "ramdisk" boots glean on the Secret's network data (`ramdisk`). Only
when the boot NIC gets a static address does the host reach `available`; otherwise it stays
`inspecting`, as a real host whose ramdisk cannot reach Ironic hangs, and is reported stuck;
so does a host whose BMC boots by PXE (`reusing_product.bmc_boot.pxe_boot`: no config drive
reaches it). Past inspection, fast track, the deploy boot, the deployed OS and the cleaning boot
follow BMO's state machine (`bmo_provisioning`). The pieces are `ramdisk`, `bmh_status` and
`bmh_secrets`.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from kubernetes import client

from dhcpless import keys
from dhcpless.keys import ProvisioningState
from dhcpless_sandbox.controllers.controller import Controller
from dhcpless_sandbox.controllers.custom_objects import CustomObjects
from dhcpless_sandbox.controllers.reflector import WatchedResource, WatchEvent
from dhcpless_sandbox.standins.bmh_secrets import PreprovisioningSecrets
from dhcpless_sandbox.standins.bmh_status import (
    host_status,
    missing_secret_message,
    network_data_from_secret,
    provisioning_state,
)
from dhcpless_sandbox.standins.bmo_boots import HostKey, MachineBoots
from dhcpless_sandbox.standins.bmo_power import HostPower
from dhcpless_sandbox.standins.bmo_predicate import Mark, worth_reconciling
from dhcpless_sandbox.standins.ramdisk import GleanMode, require_glean, secret_profile
from dhcpless_sandbox.standins.reusing_product.bmc_boot import pxe_boot
from dhcpless_sandbox.standins.reusing_product.ironic import (
    NetworkDataCheck,
    project_rules,
    refusal,
)

log = logging.getLogger(__name__)


_PLURAL = "baremetalhosts"
_BACKOFF_MIN, _BACKOFF_MAX = 0.2, 5.0


def _secret_name(host: dict[str, Any]) -> str | None:
    return (host.get("spec") or {}).get("preprovisioningNetworkDataName")


class BMOController(MachineBoots, HostPower, Controller[HostKey]):
    """Reconciles BareMetalHosts: register, inspect (ramdisk boot), available."""

    def __init__(
        self,
        api: client.ApiClient,
        *,
        glean_mode: GleanMode = GleanMode.SUBPROCESS,
        workers: int = 4,
        network_data_check: NetworkDataCheck = project_rules,
    ) -> None:
        require_glean()  # fail at start, with the install hint, not at the first boot
        self._hosts = CustomObjects(api, keys.BMO_GROUP, keys.BMO_VERSION)
        self._core = client.CoreV1Api(api)
        self._seen: dict[HostKey, dict[str, Any]] = {}
        self._watched: dict[HostKey, Mark] = {}
        """What of each host, as last watched, makes an update worth a reconcile."""
        """Each host as its reconcile read it: which transition `_set_status` writes."""
        self.events: list[tuple[HostKey, str]] = []
        """Every Event written, in order: host and reason (`bmo_power`)."""
        self._secrets = PreprovisioningSecrets(api)
        self._glean_mode = glean_mode
        self._check = network_data_check
        resource = WatchedResource(f"{keys.BMO_GROUP}/{keys.BMO_VERSION}", "BareMetalHost", _PLURAL)
        super().__init__(api, "bmo", [resource], workers)
        self._lock = threading.Lock()
        self._retries: dict[HostKey, int] = {}
        self.stuck: dict[HostKey, str] = {}
        """Hosts whose ramdisk could not configure the boot NIC, with the reason."""
        self.refused: dict[HostKey, str] = {}
        """Hosts whose network data Ironic refused at registration (fields and rules only)."""
        self.wire: dict[HostKey, tuple[str, ...]] = {}
        """What glean configured on each host's boot NIC at its last boot (ramdisk or deployed
        OS): fast track keeps the ramdisk running (`sandbox.wire` counts duplicates)."""
        self.boots: list[tuple[HostKey, str, tuple[str, ...]]] = []
        """Every boot in order: host, which machine (`inspect`, `deploy`, `os`, `clean`), and
        the addresses glean configured."""

    def _on_event(self, kind: WatchEvent, host: dict[str, Any]) -> None:
        meta = host.get("metadata", {})
        key = (meta.get("namespace", ""), meta.get("name", ""))
        if kind is WatchEvent.DELETED:
            self._secrets.release(key[0], _secret_name(host))
            self._watched.pop(key, None)
            with self._lock:  # the machine is gone with its host (deprovisioned, powered off)
                self.wire.pop(key, None)
        elif worth_reconciling(self._watched, key, host, kind):
            self._queue.add(key)

    def reconcile(self, key: HostKey) -> float | None:
        """One pass of the state machine; returns when to look again."""
        host = self._hosts.get(_PLURAL, *key)
        if host is None or keys.PAUSED_ANNOTATION in (host["metadata"].get("annotations") or {}):
            return None  # BMO returns before anything else for a paused host
        self._seen[key] = host
        if host["metadata"].get("deletionTimestamp"):
            return self._on_deletion(key, host)
        state = provisioning_state(host)
        if state == ProvisioningState.NONE:
            self._set_status(key, host_status(ProvisioningState.REGISTERING))
            return 0.0
        if state == ProvisioningState.REGISTERING:
            return self._register(key, host)
        if state == ProvisioningState.INSPECTING:
            return self._inspect(key, host)
        self._ensure_finalizer(host)
        powered = self._manage_power(key, host)
        return powered if powered is not None else self._after_inspection(key, host)

    def _register(self, key: HostKey, host: dict[str, Any]) -> float | None:
        name = _secret_name(host)
        secret = self._secrets.claim(key[0], name) if name else None
        if name and secret is None:
            count = int((host.get("status") or {}).get("errorCount") or 0) + 1
            message = missing_secret_message(name, key[0])
            self._set_status(key, host_status(ProvisioningState.REGISTERING, message, count))
            return self._backoff(key)
        refused = refusal(secret, self._check)
        if refused is not None:  # a transient error for BMO: no status, stays registering
            log.info("BareMetalHost %s/%s: Ironic refused its network_data", *key)
            with self._lock:
                self.refused[key] = refused
            return self._backoff(key)
        with self._lock:
            self.refused.pop(key, None)
        self._set_status(key, host_status(ProvisioningState.INSPECTING))
        return 0.0

    def _inspect(self, key: HostKey, host: dict[str, Any]) -> float | None:
        if (pxe := pxe_boot(host)) is not None:  # nothing answers its DHCP: it hangs here
            with self._lock:
                self.stuck[key] = pxe
            return self._backoff(key)
        secret = self._secrets.get(key[0], _secret_name(host))
        data = network_data_from_secret(secret) if secret else None
        boot_mac = str((host.get("spec") or {}).get("bootMACAddress", ""))
        result = self._booter(secret_profile(secret))(data or {}, boot_mac)
        if not result.ok:
            with self._lock:
                self.stuck[key] = result.reason
            return self._backoff(key)
        self._record(key, "inspect", result.addresses)
        self._set_status(key, host_status(ProvisioningState.AVAILABLE))
        return 0.0  # BMO's `actionComplete` requeues (`action_result.go`); its status write
        # brings no reconcile (`bmo_predicate`)

    def _backoff(self, key: HostKey) -> float:
        with self._lock:
            tries = self._retries[key] = self._retries.get(key, 0) + 1
        # The exponent is capped: a host retried for hours would otherwise overflow the float
        # and kill the worker thread.
        return min(_BACKOFF_MIN * 2.0 ** min(tries - 1, 32), _BACKOFF_MAX)

    def _set_status(self, key: HostKey, status: dict[str, Any]) -> None:
        log.info("BareMetalHost %s/%s: %s", *key, status["provisioning"]["state"] or "-")
        if (seen := self._seen.get(key)) is not None:
            self._status_events(seen, status)
        self._hosts.patch_status(_PLURAL, *key, status)

    def _events_api(self) -> client.CoreV1Api:
        return self._core
