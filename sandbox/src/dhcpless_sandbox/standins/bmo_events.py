"""The Events BMO records on a BareMetalHost, as the stand-in writes them (pure).

baremetal-operator publishes Normal Events through `BareMetalHost.NewEvent`
(`apis/metal3.io/v1alpha1/baremetalhost_types.go`): `generateName` of the reason, the host as
involved object, component `metal3-baremetal-controller`. The reasons and messages are the
provisioner's (`pkg/provisioner/ironic/register.go` "Registered", `inspecthardware.go`
"InspectionStarted"/"InspectionComplete", `ironic.go` "ProvisioningStarted"/"Complete",
"DeprovisioningStarted"/"Complete", `changePower` "PowerOn"/"PowerOff") and the controller's
`recordActionFailure` ("RegistrationError" with the error message). Used by `bmo_power`.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from dhcpless.keys import ProvisioningState

COMPONENT = "metal3-baremetal-controller"
CONTROLLER = "metal3.io/baremetal-controller"
_ON_ENTRY = {
    ProvisioningState.INSPECTING: (
        ("Registered", "Registered new host"),
        ("InspectionStarted", "Hardware inspection started"),
    ),
    ProvisioningState.DEPROVISIONING: (("DeprovisioningStarted", "Image deprovisioning started"),),
}


def entry_events(old: str, status: Mapping[str, Any], image: str) -> list[tuple[str, str]]:
    """Pure: the Events BMO records as a host moves from state `old` to `status`."""
    new = (status.get("provisioning") or {}).get("state", "")
    if status.get("errorType") == "registration error":
        return [("RegistrationError", str(status.get("errorMessage") or ""))]
    if new == old:
        return []
    if new == ProvisioningState.AVAILABLE:
        done = old == ProvisioningState.DEPROVISIONING
        return (
            [("DeprovisioningComplete", "Image deprovisioning completed")]
            if done
            else [("InspectionComplete", "Hardware inspection completed")]
        )
    if new == ProvisioningState.PROVISIONING:
        return [("ProvisioningStarted", f"Image provisioning started for {image}")]
    if new == ProvisioningState.PROVISIONED:
        return [("ProvisioningComplete", f"Image provisioning completed for {image}")]
    return list(_ON_ENTRY.get(ProvisioningState(new), ())) if new in _STATES else []


_STATES = frozenset(s.value for s in ProvisioningState)


def event_body(host: Mapping[str, Any], reason: str, message: str) -> dict[str, Any]:
    """`BareMetalHost.NewEvent`: a Normal Event on the host, from BMO's component."""
    meta = host.get("metadata") or {}
    now = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    involved = {
        "kind": "BareMetalHost",
        "namespace": meta.get("namespace", ""),
        "name": meta.get("name", ""),
        "uid": meta.get("uid", ""),
        "apiVersion": "metal3.io/v1alpha1",
    }
    return {
        "metadata": {"generateName": f"{reason}-", "namespace": meta.get("namespace", "")},
        "involvedObject": involved,
        "reason": reason,
        "message": message,
        "source": {"component": COMPONENT},
        "firstTimestamp": now,
        "lastTimestamp": now,
        "count": 1,
        "type": "Normal",
        "reportingComponent": CONTROLLER,
    }
