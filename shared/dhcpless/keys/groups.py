"""API groups and versions of the kinds we read and write."""

from __future__ import annotations

from typing import Final

__all__ = [
    "BMO_GROUP",
    "BMO_VERSION",
    "CAPI_IPAM_GROUP",
    "CAPI_IPAM_VERSION",
    "CAPM3_GROUP",
    "CAPM3_VERSION",
    "IPAM_GROUP",
    "IPAM_VERSION",
]

BMO_GROUP: Final = "metal3.io"
BMO_VERSION: Final = "v1alpha1"
IPAM_GROUP: Final = "ipam.metal3.io"
IPAM_VERSION: Final = "v1alpha1"
CAPM3_GROUP: Final = "infrastructure.cluster.x-k8s.io"
CAPM3_VERSION: Final = "v1beta2"
CAPI_IPAM_GROUP: Final = "ipam.cluster.x-k8s.io"
CAPI_IPAM_VERSION: Final = "v1beta1"
"""CAPI's IPAddressClaim/IPAddress version the chain reads and writes (CAPI v1.x)."""
