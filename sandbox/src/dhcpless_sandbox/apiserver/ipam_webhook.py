"""IPAM's validating webhook for IPAddress updates: what an address is never changes.

ip-address-manager serves `validation.ipaddress.ipam.metal3.io` (`config/webhook/
manifests.yaml`, CREATE and UPDATE); its `IPAddress.ValidateUpdate`
(`internal/webhooks/v1alpha1/ipaddress_webhook.go`) refuses, as one 422 Invalid, an update
that changes `spec.address`, `spec.pool` (name, namespace or kind) or `spec.claim` (the same),
each "cannot be modified". Without it the sandbox let anyone move an address to another claim
or pool, which a real cluster refuses, so a test could pass on a write that cannot happen.
The API server wraps a webhook's denial as `admission webhook "<name>" denied the request:`.
"""

from __future__ import annotations

import json
from typing import Any

from dhcpless import keys
from dhcpless_sandbox.apiserver.status import ApiError, Cause, invalid

JSON = dict[str, Any]
KEY = (keys.IPAM_GROUP, "ipaddresses")
"""The storage key the rule is installed under (`Api.rules`)."""
WEBHOOK = "validation.ipaddress.ipam.metal3.io"
_REFERENCES = ("name", "namespace", "kind")


def _changed(new: JSON, old: JSON) -> list[Cause]:
    spec, was = new.get("spec") or {}, old.get("spec") or {}
    causes = []
    if spec.get("address") != was.get("address"):
        causes.append(_cause("spec.address", spec.get("address")))
    for field in ("pool", "claim"):
        mine, before = spec.get(field) or {}, was.get(field) or {}
        if any(mine.get(k) != before.get(k) for k in _REFERENCES):
            causes.append(_cause(f"spec.{field}", mine))
    return causes


def _cause(field: str, value: object) -> Cause:
    shown = json.dumps(value, separators=(",", ":"), sort_keys=True)
    return Cause("FieldValueInvalid", f"Invalid value: {shown}: cannot be modified", field)


def validate_update(new: JSON, old: JSON | None) -> None:
    """The write rule: on UPDATE (`old` given) refuse a changed address, pool or claim."""
    if old is None:
        return
    causes = _changed(new, old)
    if not causes:
        return
    refused = invalid("IPAddress", keys.IPAM_GROUP, new["metadata"]["name"], causes)
    message = f'admission webhook "{WEBHOOK}" denied the request: {refused.message}'
    raise ApiError(refused.code, refused.reason, message, refused.details, refused.causes)
