"""The calls lending a claim to CAPM3 makes (`chain.lifecycle`), beside the main adapter.

Written on the generic operations (`kube.api.generic`) like every named call of `kube.api.client`:
typed models out, every client error translated into our families (`kube.transport.errors`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from dhcpless.kube.api import resources
from dhcpless.kube.api.client import Kube
from dhcpless.models import IPClaim
from dhcpless.models.capm3 import Metal3Data


def list_metal3data(kube: Kube, namespace: str) -> list[Metal3Data]:
    """The Metal3Data of one namespace (CAPM3 keeps a host's in its Metal3Machine's)."""
    return kube.list(resources.METAL3DATAS, namespace)


def patch_claim(
    kube: Kube, namespace: str, name: str, patch: Sequence[Mapping[str, Any]]
) -> IPClaim:
    """JSON patch; a failed `test` op (someone changed the claim) is PreconditionFailed (503)."""
    return kube.patch(resources.IPCLAIMS, namespace, name, list(patch))
