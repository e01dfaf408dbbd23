"""The BMO stand-in's power, Events and teardown: what `kubectl` users see BMO do to a host.

A mixin of `BMOController`, kept apart from the state machine up to `available` (`bmo`) and the
machines past it (`bmo_boots`) so each stays small:

* **Power** (baremetal-operator `internal/controller/metal3.io/baremetalhost_controller.go`
  `actionManageSteadyState`): in `available`, `provisioned` and `externally provisioned`, a
  host whose `spec.online` differs from `status.poweredOn` is powered on or off and the status
  follows. Powering off stops whatever machine ran (the fast-track ramdisk, the deployed OS):
  its addresses leave the wire. Powering on boots nothing this stand-in knows about, so none
  is recorded.
* **Events** (`pkg/provisioner/ironic/register.go`, `inspecthardware.go`, `ironic.go`
  `changePower` and the provisioning functions; `BareMetalHost.NewEvent` in
  `apis/metal3.io/v1alpha1/baremetalhost_types.go`): Normal Events from
  `metal3-baremetal-controller` for registration, inspection, provisioning, deprovisioning and
  power changes, and `RegistrationError` for a registration error (`recordActionFailure`).
* **Delete** (`host_state_machine.go` `checkInitiateDelete`, `handleDeprovisioning`,
  `handlePoweringOffBeforeDelete`, `handleDeleting`): a host that was given an image carries
  BMO's finalizer; deleting it while `provisioning` or `provisioned` deprovisions it first (the
  cleaning ramdisk boots), then powers it off, then the finalizer goes. Narrower than BMO, which
  puts the finalizer on every host: a host never given an image is deleted at once, as before.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Mapping
from typing import Any, cast

from kubernetes import client

from dhcpless.keys import ProvisioningState, RamdiskProfile
from dhcpless_sandbox.controllers.custom_objects import CustomObjects
from dhcpless_sandbox.standins.bmh_secrets import PreprovisioningSecrets
from dhcpless_sandbox.standins.bmh_status import host_status, provisioning_state
from dhcpless_sandbox.standins.bmo_events import entry_events, event_body
from dhcpless_sandbox.standins.bmo_provisioning import boot_with, image_url
from dhcpless_sandbox.standins.ifupdown import BootResult
from dhcpless_sandbox.standins.ramdisk import secret_profile

log = logging.getLogger(__name__)
HostKey = tuple[str, str]
HOST_FINALIZER = "baremetalhost.metal3.io"
_PLURAL = "baremetalhosts"
POWER_MANAGED = frozenset(
    {
        ProvisioningState.AVAILABLE,
        ProvisioningState.PROVISIONED,
        ProvisioningState.EXTERNALLY_PROVISIONED,
    }
)


class HostPower:
    """Power, Events and the delete path of `BMOController` (see the module docstring)."""

    _hosts: CustomObjects
    _secrets: PreprovisioningSecrets
    _lock: threading.Lock
    wire: dict[HostKey, tuple[str, ...]]
    events: list[tuple[HostKey, str]]

    def _backoff(self, key: HostKey) -> float:
        raise NotImplementedError

    def _set_status(self, key: HostKey, status: dict[str, Any]) -> None:
        raise NotImplementedError

    def _booter(self, profile: RamdiskProfile) -> Callable[[Mapping[str, Any], str], BootResult]:
        raise NotImplementedError

    def _booted(self, key: HostKey, machine: str, result: BootResult) -> bool:
        raise NotImplementedError

    def _events_api(self) -> client.CoreV1Api:
        raise NotImplementedError

    def _publish(self, host: Mapping[str, Any], reason: str, message: str) -> None:
        meta = host.get("metadata") or {}
        key = (meta.get("namespace", ""), meta.get("name", ""))
        try:
            body = cast(Any, event_body(host, reason, message))
            self._events_api().create_namespaced_event(key[0], body)
        except client.ApiException as err:  # BMO's recorder drops what it cannot write
            log.info("BareMetalHost %s/%s: Event %s not written (%s)", *key, reason, err.status)
            return
        with self._lock:
            self.events.append((key, reason))

    def _status_events(self, host: Mapping[str, Any], status: Mapping[str, Any]) -> None:
        """The Events of the transition `_set_status` is about to write."""
        for reason, message in entry_events(provisioning_state(host), status, image_url(host)):
            self._publish(host, reason, message)

    def _manage_power(self, key: HostKey, host: dict[str, Any]) -> float | None:
        """Power the host as `spec.online` says, where BMO manages power; None: nothing to do."""
        state, status = provisioning_state(host), host.get("status") or {}
        wanted = bool((host.get("spec") or {}).get("online"))
        if state not in POWER_MANAGED or bool(status.get("poweredOn")) == wanted:
            return None
        if not wanted:
            with self._lock:  # the running machine stops: its addresses leave the wire
                self.wire.pop(key, None)
        self._publish(host, *(("PowerOn", "Host powered on") if wanted else _POWER_OFF))
        self._hosts.patch_status(_PLURAL, *key, {"poweredOn": wanted})
        return 0.0

    def _ensure_finalizer(self, host: dict[str, Any]) -> None:
        """BMO's finalizer on a host that was given an image (see the module docstring)."""
        if image_url(host) and not host["metadata"].get("deletionTimestamp"):
            self._hosts.ensure_finalizer(_PLURAL, host, HOST_FINALIZER)

    def _on_deletion(self, key: HostKey, host: dict[str, Any]) -> float | None:
        """One step of BMO's delete path; None once the host may go."""
        if HOST_FINALIZER not in (host["metadata"].get("finalizers") or []):
            self._secrets.release(key[0], _data_name(host))
            return None
        state = provisioning_state(host)
        if state in (ProvisioningState.PROVISIONING, ProvisioningState.PROVISIONED):
            self._set_status(key, host_status(ProvisioningState.DEPROVISIONING))
            return 0.0
        if state == ProvisioningState.DEPROVISIONING:
            return self._clean_before_delete(key, host)
        if state != ProvisioningState.POWERING_OFF_BEFORE_DELETE:
            self._set_status(key, _powering_off())
            return 0.0
        self._delete(key, host)
        return None

    def _clean_before_delete(self, key: HostKey, host: dict[str, Any]) -> float | None:
        secret = self._secrets.get(key[0], _data_name(host))
        mac = str((host.get("spec") or {}).get("bootMACAddress", ""))
        cleaning = self._booter(secret_profile(secret))  # cleaning boots the same ramdisk
        if not self._booted(key, "clean", boot_with(secret, mac, cleaning)):
            return self._backoff(key)
        self._publish(host, "DeprovisioningComplete", "Image deprovisioning completed")
        self._set_status(key, _powering_off())
        return 0.0

    def _delete(self, key: HostKey, host: dict[str, Any]) -> None:
        """Powered off (`handlePoweringOffBeforeDelete`), then the finalizer goes."""
        with self._lock:
            self.wire.pop(key, None)
        self._publish(host, *_POWER_OFF)
        self._secrets.release(key[0], _data_name(host))
        self._hosts.remove_finalizer(_PLURAL, host, HOST_FINALIZER)


_POWER_OFF = ("PowerOff", "Host powered off")


def _powering_off() -> dict[str, Any]:
    status = host_status(ProvisioningState.POWERING_OFF_BEFORE_DELETE)
    return {**status, "poweredOn": False}


def _data_name(host: Mapping[str, Any]) -> str | None:
    return (host.get("spec") or {}).get("preprovisioningNetworkDataName")
