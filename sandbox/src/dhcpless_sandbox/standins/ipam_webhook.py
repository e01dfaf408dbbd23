"""IPAM's IPPool validating webhook, as a write rule of the sandbox API server.

ip-address-manager `internal/webhooks/v1alpha1/ippool_webhook.go`: `ValidateCreate` refuses
pre-allocations outside the pool's ranges; `ValidateUpdate` also refuses a change of
`spec.namePrefix` (IPAddress names are `<namePrefix>-<address>`: renaming would orphan every
address) and a shrink that leaves an address in use (`status.indexes`, the old pool's
allocations) outside every range (`checkPoolBounds`, `isAddressInBounds`: at or after `start`,
at or before `end`, inside `subnet`, each when given). The webhook serves `ippools`, not
`ippools/status`, so a write that leaves `spec` alone (IPAM's own status updates) is not judged.
The messages are upstream's, its "bonds" on create included.
"""

from __future__ import annotations

import ipaddress
from typing import Any

from dhcpless import keys
from dhcpless_sandbox.apiserver.api import Api
from dhcpless_sandbox.apiserver.status import Cause, invalid

JSON = dict[str, Any]
KEY = (keys.IPAM_GROUP, "ippools")


def install(api: Api) -> None:
    """Judge every write of an IPPool as IPAM's webhook does (IPAM is installed)."""
    api.rules[KEY] = validate


def validate(new: JSON, old: JSON | None) -> None:
    """Raise 422 Invalid with upstream's causes, or return."""
    spec = new.get("spec") or {}
    if old is not None and spec == (old.get("spec") or {}):
        return
    causes = [
        _cause("spec.preAllocations", a, "is out of bonds of the pools given" if old is None
               else "is out of bounds of the pools given")
        for a in (spec.get("preAllocations") or {}).values()
        if not in_bounds(spec, a)
    ]  # fmt: skip
    if old is not None:
        causes = _update_causes(spec, old) + causes
    if causes:
        raise invalid("IPPool", keys.IPAM_GROUP, new["metadata"].get("name", ""), causes)


def _update_causes(spec: JSON, old: JSON) -> list[Cause]:
    before = old.get("spec") or {}
    causes = []
    if spec.get("namePrefix") != before.get("namePrefix"):
        causes.append(_cause("spec.namePrefix", spec.get("namePrefix"), "cannot be modified"))
    in_use = ((old.get("status") or {}).get("indexes") or {}).values()
    message = "is in use but out of bounds of the pools given"
    causes += [_cause("spec.pools", a, message) for a in in_use if not in_bounds(spec, a)]
    return causes


def _cause(field: str, value: Any, why: str) -> Cause:
    shown = "null" if value is None else f'"{value}"'
    return Cause("FieldValueInvalid", f"Invalid value: {shown}: {why}", field)


def in_bounds(spec: JSON, address: str) -> bool:
    """Pure: `isAddressInBounds`: inside some range of the pool (ranges it cannot parse skipped)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(
        _within(r, ip) for r in spec.get("pools") or [] if set(r) & {"start", "end", "subnet"}
    )


def _within(pool: JSON, ip: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """`netip.Addr.Compare` order: by family, then by value."""
    at = (ip.version, int(ip))
    try:
        start = _order(pool.get("start"))
        end = _order(pool.get("end"))
        subnet = ipaddress.ip_network(pool["subnet"], strict=False) if pool.get("subnet") else None
    except ValueError:
        return False
    if (start is not None and start > at) or (end is not None and end < at):
        return False
    return subnet is None or ip in subnet


def _order(text: str | None) -> tuple[int, int] | None:
    if not text:
        return None
    found = ipaddress.ip_address(text)
    return found.version, int(found)
