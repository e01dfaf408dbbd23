"""The machines a host runs past inspection, as the BMO stand-in boots them.

Exists apart from `bmo` (the state machine up to `available`) so each module stays small: the
deploy ramdisk, the deployed OS and the cleaning ramdisk (when, and on which data:
`bmo_provisioning`), each booted through glean and recorded on the wire as it happens. A mixin
of `BMOController`, whose state (Secrets, Ironic's check, glean mode, the wire) it uses.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from typing import Any

from dhcpless.keys import ProvisioningState, RamdiskProfile
from dhcpless_sandbox.standins.bmh_secrets import PreprovisioningSecrets
from dhcpless_sandbox.standins.bmh_status import host_status
from dhcpless_sandbox.standins.bmo_provisioning import (
    Step,
    boot_with,
    cleared_status,
    deployed_data_name,
    next_step,
    provisioned_status,
)
from dhcpless_sandbox.standins.ifupdown import BootResult
from dhcpless_sandbox.standins.ramdisk import GleanMode, ramdisk_boot, secret_profile
from dhcpless_sandbox.standins.reusing_product.ironic import NetworkDataCheck, refusal

HostKey = tuple[str, str]
"""(namespace, name) of a BareMetalHost."""


def _secret_name(host: dict[str, Any]) -> str | None:
    return (host.get("spec") or {}).get("preprovisioningNetworkDataName")


class MachineBoots:
    """Provisioning, the deployed OS and cleaning; `wire` and `boots` record every boot."""

    _secrets: PreprovisioningSecrets
    _check: NetworkDataCheck
    _glean_mode: GleanMode
    _lock: threading.Lock
    _retries: dict[HostKey, int]
    stuck: dict[HostKey, str]
    wire: dict[HostKey, tuple[str, ...]]
    boots: list[tuple[HostKey, str, tuple[str, ...]]]

    def _backoff(self, key: HostKey) -> float:
        raise NotImplementedError

    def _set_status(self, key: HostKey, status: dict[str, Any]) -> None:
        raise NotImplementedError

    def _after_inspection(self, key: HostKey, host: dict[str, Any]) -> float | None:
        step = next_step(host)
        if step is Step.START_PROVISIONING:
            self._set_status(key, host_status(ProvisioningState.PROVISIONING))
        elif step is Step.START_DEPROVISIONING:
            self._set_status(key, host_status(ProvisioningState.DEPROVISIONING))
        elif step in (Step.DEPLOY, Step.CLEAN):
            return self._ramdisk_then(key, host, step)
        return 0.0 if step is not Step.NOTHING else None

    def _ramdisk_then(self, key: HostKey, host: dict[str, Any], step: Step) -> float | None:
        """Deploy or cleaning ramdisk on the pre-provisioning Secret as it is now (BMO updated
        the node's data: `ensureRegistered`); after a deploy, the deployed OS boots."""
        secret = self._secrets.get(key[0], _secret_name(host))
        if refusal(secret, self._check) is not None:
            return self._backoff(key)
        mac = str((host.get("spec") or {}).get("bootMACAddress", ""))
        ramdisk = self._booter(secret_profile(secret))
        if not self._booted(key, step.value, boot_with(secret, mac, ramdisk)):
            return self._backoff(key)
        if step is Step.CLEAN:
            self._set_status(key, cleared_status(host_status(ProvisioningState.AVAILABLE)))
            return 0.0  # BMO's `actionComplete`: requeue, the next state may have work
        deployed = self._secrets.get(key[0], deployed_data_name(host))
        # the installed OS applies its data with its own tooling (cloud-init), not the ramdisk's
        # per-NIC glean: it gets what the data claims for its boot NIC
        if not self._booted(
            key, "os", boot_with(deployed, mac, self._booter(RamdiskProfile.NMSTATE))
        ):
            return self._backoff(key)
        status = host_status(ProvisioningState.PROVISIONED)
        self._set_status(key, provisioned_status(status, host))
        return 0.0  # the image may have changed meanwhile: `handleProvisioned` looks

    def _booter(self, profile: RamdiskProfile) -> Callable[[Mapping[str, Any], str], BootResult]:
        """A boot of the `profile` ramdisk (`ramdisk.ramdisk_boot`)."""
        return lambda data, boot_mac: ramdisk_boot(data, boot_mac, self._glean_mode, profile)

    def _booted(self, key: HostKey, machine: str, result: BootResult) -> bool:
        if not result.ok:
            with self._lock:
                self.stuck[key] = f"{machine}: {result.reason}"
            return False
        self._record(key, machine, result.addresses)
        return True

    def _record(self, key: HostKey, machine: str, addresses: tuple[str, ...]) -> None:
        """This host's running machine now has `addresses` (the wire sees it at once)."""
        with self._lock:
            self.stuck.pop(key, None)
            self._retries.pop(key, None)
            self.wire[key] = addresses
            self.boots.append((key, machine, addresses))
