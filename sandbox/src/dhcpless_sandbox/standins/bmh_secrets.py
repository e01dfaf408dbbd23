"""BMO's handling of a host's preprovisioning Secret: read it, claim it, release it.

Exists apart from the host state machine because the Secret side is its own protocol (BMO >=
0.14): a Secret in use gets BMO's label and finalizer (so deleting it waits for the host), and
the finalizer is removed when the host goes away. Reads use the raw JSON so the Secret's data
is never turned into client model objects; nothing here logs data.
"""

from __future__ import annotations

import json
from typing import Any, cast

from kubernetes import client

from dhcpless import keys
from dhcpless_sandbox.controllers.custom_objects import none_if_missing

_MERGE = "application/merge-patch+json"


class PreprovisioningSecrets:
    """The Secrets named by hosts' `spec.preprovisioningNetworkDataName`."""

    def __init__(self, api: client.ApiClient) -> None:
        self._core = client.CoreV1Api(api)

    def get(self, namespace: str, name: str | None) -> dict[str, Any] | None:
        """The Secret as a dict; None when unnamed or missing."""
        if not name:
            return None
        read = self._core.read_namespaced_secret
        raw: Any = none_if_missing(lambda: read(name, namespace, _preload_content=False))
        return None if raw is None else cast(dict[str, Any], json.loads(raw.data))

    def claim(self, namespace: str, name: str) -> dict[str, Any] | None:
        """The Secret, labelled and finalized as BMO's (patched only when not yet); None if
        missing."""
        secret = self.get(namespace, name)
        if secret is None:
            return None
        meta = secret["metadata"]
        finalizers = list(meta.get("finalizers") or [])
        labels = meta.get("labels") or {}
        if keys.BMO_SECRET_FINALIZER in finalizers and keys.BMO_SECRET_LABEL in labels:
            return secret
        patch = {
            "metadata": {
                "resourceVersion": meta["resourceVersion"],
                "labels": {keys.BMO_SECRET_LABEL: keys.BMO_SECRET_LABEL_VALUE},
                "finalizers": sorted({*finalizers, keys.BMO_SECRET_FINALIZER}),
            }
        }
        self._patch(namespace, name, patch)
        return secret

    def release(self, namespace: str, name: str | None) -> None:
        """Drop BMO's finalizer from the Secret, if it is there."""
        secret = self.get(namespace, name)
        finalizers = list((secret or {}).get("metadata", {}).get("finalizers") or [])
        if secret is None or name is None or keys.BMO_SECRET_FINALIZER not in finalizers:
            return
        remaining = [f for f in finalizers if f != keys.BMO_SECRET_FINALIZER]
        self._patch(namespace, name, {"metadata": {"finalizers": remaining}})

    def _patch(self, namespace: str, name: str, patch: dict[str, Any]) -> None:
        self._core.patch_namespaced_secret(name, namespace, patch, _content_type=_MERGE)
