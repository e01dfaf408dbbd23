"""Small builders for BareMetalHosts used by the renderer and resolver tables."""

from __future__ import annotations

from typing import Any

from dhcpless.models import BareMetalHost


def make_host(
    *,
    name: str = "bmh-0",
    annotations: dict[str, str] | None = None,
    labels: dict[str, str] | None = None,
    nics: list[dict[str, str]] | None = None,
    hardware: bool | None = None,
    boot_mac: str = "",
    namespace: str = "ns",
) -> BareMetalHost:
    """A host; `nics` sets status.hardware.nics, `hardware=True` an empty hardware block."""
    status: dict[str, Any] = {}
    if nics is not None:
        status["hardware"] = {"nics": nics}
    elif hardware:
        status["hardware"] = {}
    obj = {
        "metadata": {
            "name": name,
            "namespace": namespace,
            "annotations": annotations or {},
            "labels": labels or {},
        },
        "spec": {"bootMACAddress": boot_mac} if boot_mac else {},
        "status": status,
    }
    return BareMetalHost.from_k8s(obj)


NO_HOST = make_host()
"""CAPM3's tables pass a nil BMH; our closest equivalent is a host with no status."""
