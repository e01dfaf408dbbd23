"""What BMO writes to and reads from a BareMetalHost and its preprovisioning Secret.

Exists so the exact shapes the functions depend on are pure and in one place: the complete
status the CRD requires (with `errorType` only alongside an error), BMO v0.14's registration
error text for a missing Secret, how BMO decodes the Secret's network data, and where the
provisioning state sits (shared with the demo's report).
"""

from __future__ import annotations

import base64
from collections.abc import Mapping
from typing import Any

import yaml

from dhcpless.keys import ProvisioningState


def provisioning_state(host: Mapping[str, Any], default: str = "") -> Any:
    """`status.provisioning.state` as stored (`default` when the key is absent)."""
    return ((host.get("status") or {}).get("provisioning") or {}).get("state", default)


_RUNNING = frozenset(
    {
        ProvisioningState.AVAILABLE,  # fast track: the ramdisk keeps running after inspection
        ProvisioningState.PROVISIONING,
        ProvisioningState.PROVISIONED,
        ProvisioningState.DEPROVISIONING,
    }
)


def missing_secret_message(name: str, namespace: str) -> str:
    """BMO v0.14's registration error text for a missing preprovisioning Secret."""
    return (
        "failed to read preprovisioningNetworkData: failed to fetch secret "
        f'{name} in namespace {namespace}: secrets "{name}" not found'
    )


def host_status(state: ProvisioningState, error: str = "", error_count: int = 0) -> dict[str, Any]:
    """A complete BMH status (the CRD requires these fields); `errorType` only with an error."""
    return {
        "operationalStatus": "error" if error else "OK",
        "errorType": "registration error" if error else None,
        "errorMessage": error,
        "errorCount": error_count,
        "poweredOn": state in _RUNNING,
        "provisioningFailCount": 0,
        "provisioning": {"ID": "", "state": state.value},
    }


def network_data_from_secret(secret: Mapping[str, Any]) -> dict[str, Any] | None:
    """BMO reads key `networkData`, else `value`; JSON or YAML. None when absent or unparsable."""
    data = secret.get("data") or {}
    raw = data.get("networkData") or data.get("value")
    if not raw:
        return None
    try:
        parsed = yaml.safe_load(base64.b64decode(raw))
    except (ValueError, yaml.YAMLError):
        return None
    return parsed if isinstance(parsed, dict) else None
