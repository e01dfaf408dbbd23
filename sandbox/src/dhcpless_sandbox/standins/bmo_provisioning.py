"""BMO after inspection: fast track, the deploy boot, the deployed OS, the cleaning boot.

Exists so the sandbox sees every machine a host runs for its whole life, not only the
inspection ramdisk, because an address is in use for as long as one of them runs:

* Fast track is on by default in Metal3's Ironic (ironic-image `scripts/ironic-common.sh`,
  `IRONIC_FAST_TRACK=true`): after inspection the ramdisk keeps running with the
  pre-provisioning address, so the BMO stand-in's wire record stays as the inspection left it.
* BMO registers the node again in every registered state, sending the pre-provisioning Secret's
  data as node `network_data` (baremetal-operator `internal/controller/metal3.io/
  host_state_machine.go` `ensureRegistered`, `pkg/provisioner/ironic/register.go` `Register`),
  so the deploy ramdisk and the cleaning ramdisk boot with the Secret as it is *then*.
* `available` with `spec.image` set goes `provisioning` (`handleAvailable`); the deployed OS's
  config drive carries `spec.networkData`, or the pre-provisioning Secret when that is unset
  (`host_config_data.go` `NetworkData`, `pkg/provisioner/ironic/ironic.go` `getConfigDrive`).
* `provisioned` whose `spec.image` is gone or changed goes `deprovisioning`
  (`provisioningCancelled`, `handleProvisioned`); cleaning boots the ramdisk, then `available`
  (`handleDeprovisioning`).

Each boot runs glean (`ramdisk`) on the data that machine gets and is recorded on the wire.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from enum import StrEnum
from typing import Any

from dhcpless.keys import ProvisioningState
from dhcpless_sandbox.standins.bmh_status import network_data_from_secret, provisioning_state
from dhcpless_sandbox.standins.ifupdown import BootResult


class Step(StrEnum):
    """What BMO does next for a host past inspection (pure: `next_step`)."""

    NOTHING = "nothing"
    START_PROVISIONING = "start-provisioning"
    DEPLOY = "deploy"
    START_DEPROVISIONING = "start-deprovisioning"
    CLEAN = "clean"


def image_url(host: Mapping[str, Any]) -> str:
    """`spec.image.url` ("" when there is no image)."""
    return str(((host.get("spec") or {}).get("image") or {}).get("url") or "")


def provisioned_url(host: Mapping[str, Any]) -> str:
    """The image the host was provisioned with (`status.provisioning.image.url`)."""
    provisioning = (host.get("status") or {}).get("provisioning") or {}
    return str((provisioning.get("image") or {}).get("url") or "")


def next_step(host: Mapping[str, Any]) -> Step:
    """BMO's `handleAvailable`, `handleProvisioning`, `handleProvisioned` and
    `handleDeprovisioning`, reduced to what moves a host between these states."""
    state, wanted = provisioning_state(host), image_url(host)
    if state == ProvisioningState.AVAILABLE:
        return Step.START_PROVISIONING if wanted else Step.NOTHING
    if state == ProvisioningState.PROVISIONING:
        return Step.DEPLOY
    if state == ProvisioningState.PROVISIONED:
        cancelled = not wanted or wanted != provisioned_url(host)
        return Step.START_DEPROVISIONING if cancelled else Step.NOTHING
    if state == ProvisioningState.DEPROVISIONING:
        return Step.CLEAN
    return Step.NOTHING


def deployed_data_name(host: Mapping[str, Any]) -> str | None:
    """The Secret the deployed OS's config drive takes its network data from:
    `spec.networkData`, else the pre-provisioning Secret (`hostConfigData.NetworkData`)."""
    spec = host.get("spec") or {}
    named = (spec.get("networkData") or {}).get("name")
    return str(named) if named else spec.get("preprovisioningNetworkDataName")


Boot = Callable[[Mapping[str, Any], str], BootResult]
"""glean on one network-data document for one boot MAC (`ramdisk.ramdisk_boot`)."""


def boot_with(secret: Mapping[str, Any] | None, boot_mac: str, boot: Boot) -> BootResult:
    """One machine boot on a Secret's data (nothing configured without data)."""
    data = network_data_from_secret(secret) if secret else None
    return boot(data or {}, boot_mac)


def provisioned_status(status: Mapping[str, Any], host: Mapping[str, Any]) -> dict[str, Any]:
    """`status` with the provisioned image recorded (what `provisioningCancelled` compares)."""
    image = (host.get("spec") or {}).get("image")
    found = dict(status)
    found["provisioning"] = {**found["provisioning"], "image": image}
    return found


def cleared_status(status: Mapping[str, Any]) -> dict[str, Any]:
    """`status` with the provisioned image removed (a merge patch: null deletes)."""
    found = dict(status)
    found["provisioning"] = {**found["provisioning"], "image": None}
    return found
