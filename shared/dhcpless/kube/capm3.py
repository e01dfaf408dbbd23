"""The calls lending a claim to CAPM3 makes (`chain.lifecycle`), beside the main adapter.

Kept apart from `kube.client` (already at its size limit) and written the same way: typed
models out, every client error translated into our families (`kube.errors`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kubernetes.client import CustomObjectsApi

from dhcpless import keys
from dhcpless.errors import Transient
from dhcpless.kube.client import JSON_PATCH, Kube
from dhcpless.kube.errors import Verb, translated
from dhcpless.models import IPClaim
from dhcpless.models.capm3 import Metal3Data


def list_metal3data(kube: Kube, namespace: str) -> list[Metal3Data]:
    """The Metal3Data of one namespace (CAPM3 keeps a host's in its Metal3Machine's)."""
    with translated(Verb.LIST, f"metal3datas in {namespace}"):
        raw = CustomObjectsApi(kube.api_client).list_namespaced_custom_object(
            keys.CAPM3_GROUP, keys.CAPM3_VERSION, namespace, "metal3datas"
        )
        items = _mapping(raw).get("items") or []
        return [Metal3Data.from_k8s(_mapping(item)) for item in items]


def patch_claim(
    kube: Kube, namespace: str, name: str, patch: Sequence[Mapping[str, Any]]
) -> IPClaim:
    """JSON patch; a failed `test` op (someone changed the claim) is PreconditionFailed (503)."""
    with translated(Verb.PATCH, f"IPClaim {namespace}/{name}"):
        raw = CustomObjectsApi(kube.api_client).patch_namespaced_custom_object(
            keys.IPAM_GROUP, keys.IPAM_VERSION, namespace, "ipclaims", name,
            [dict(op) for op in patch],
            _content_type=JSON_PATCH,
        )  # fmt: skip
        return IPClaim.from_k8s(_mapping(raw))


def _mapping(raw: object) -> Mapping[str, Any]:
    if not isinstance(raw, Mapping):
        raise Transient(f"unexpected API response of type {type(raw).__name__}")
    return raw
