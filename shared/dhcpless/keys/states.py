"""BareMetalHost states BMO reports."""

from __future__ import annotations

from enum import StrEnum
from typing import Final

__all__ = ["REGISTRATION_ERROR", "ProvisioningState"]


class ProvisioningState(StrEnum):
    """BMO's `status.provisioning.state` values (baremetalhost_types.go)."""

    NONE = ""
    UNMANAGED = "unmanaged"
    REGISTERING = "registering"
    MATCH_PROFILE = "match profile"
    PREPARING = "preparing"
    READY = "ready"
    AVAILABLE = "available"
    PROVISIONING = "provisioning"
    PROVISIONED = "provisioned"
    EXTERNALLY_PROVISIONED = "externally provisioned"
    DEPROVISIONING = "deprovisioning"
    INSPECTING = "inspecting"
    POWERING_OFF_BEFORE_DELETE = "powering off before delete"
    DELETING = "deleting"


REGISTRATION_ERROR: Final = "registration error"
"""BMO's `status.errorType` when it cannot register the host (e.g. its Secret is missing)."""
