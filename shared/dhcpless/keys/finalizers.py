"""Finalizers other projects put on the objects we read and write."""

from __future__ import annotations

from typing import Final

__all__ = [
    "BMO_SECRET_FINALIZER",
    "CAPM3_DATA_FINALIZER",
    "IPAM_ADDRESS_FINALIZER",
    "IPAM_CLAIM_FINALIZER",
    "IPAM_POOL_FINALIZER",
]

BMO_SECRET_FINALIZER: Final = "baremetalhost.metal3.io/secret"
IPAM_CLAIM_FINALIZER: Final = "ipclaim.ipam.metal3.io"
IPAM_ADDRESS_FINALIZER: Final = "ipaddress.ipam.metal3.io"
IPAM_POOL_FINALIZER: Final = "ippool.ipam.metal3.io"
CAPM3_DATA_FINALIZER: Final = "metal3data.infrastructure.cluster.x-k8s.io"
