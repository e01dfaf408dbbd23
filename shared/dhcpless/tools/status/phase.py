"""`dhcpless status`: a host's phase (pure), matching the Events our functions record.

While a host is paused for us, the latest of our Events decides when it is a blocking Warning:
each blocking reason is its own phase (a render failure is "render failed", not "waiting for
claims"). Otherwise the objects decide: claims, the Secret, BMO's state, the hang threshold.
A host we released and that someone paused for us again after it got past inspection is
"paused again". A host never paused, never released, with no claims of ours, that a template
applies to and that has not got past inspection is listed as "registered without pause" when
it slipped through (`chain.slipped`: the functions warned about it), else "not paused": it is
inspecting with DHCP, or waiting for a pause it will never get.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from dhcpless import keys
from dhcpless.chain.gate import Gate, gate
from dhcpless.chain.predicates import on_host
from dhcpless.keys import ProvisioningState
from dhcpless.models import BareMetalHost, IPClaim
from dhcpless.reasons import Reason


class Phase(StrEnum):
    WAITING_FOR_TEMPLATE = "waiting for template"
    AMBIGUOUS_TEMPLATE = "ambiguous template"
    INVALID_TEMPLATE = "invalid template"
    WAITING_FOR_CLAIMS = "waiting for claims"
    CLAIM_FAILED = "claim failed"
    RENDER_FAILED = "render failed"
    SECRET_MISSING = "secret missing"
    SECRET_INVALID = "secret invalid"
    SECRET_CONFLICT = "secret conflict"
    INVALID_NETWORK_DATA = "invalid network data"
    SECRET_UNUSABLE = "secret unusable"
    NAME_TOO_LONG = "name too long"
    BMC_BOOTS_BY_PXE = "BMC boots by PXE"
    UNKNOWN_BMC_DRIVER = "unknown BMC driver"
    RENDERED = "rendered"
    RELEASED = "released"
    INSPECTING = "inspecting"
    AVAILABLE = "available"
    PREPARING = "preparing"
    PROVISIONING = "provisioning"
    PROVISIONED = "provisioned"
    EXTERNALLY_PROVISIONED = "externally provisioned"
    DEPROVISIONING = "deprovisioning"
    DELETING = "deleting"
    STUCK = "stuck"
    PAUSED_AGAIN = "paused again"
    NOT_PAUSED = "not paused"
    UNPAUSED = "registered without pause"
    """Slipped through: unpaused, no network data, registering or inspecting (`chain.slipped`)."""


BLOCKING = {
    Reason.NO_TEMPLATE: Phase.WAITING_FOR_TEMPLATE,
    Reason.AMBIGUOUS_TEMPLATE: Phase.AMBIGUOUS_TEMPLATE,
    Reason.INVALID_TEMPLATE: Phase.INVALID_TEMPLATE,
    Reason.CLAIM_FAILED: Phase.CLAIM_FAILED,
    Reason.RENDER_FAILED: Phase.RENDER_FAILED,
    Reason.SECRET_MISSING: Phase.SECRET_MISSING,
    Reason.SECRET_INVALID: Phase.SECRET_INVALID,
    Reason.SECRET_CONFLICT: Phase.SECRET_CONFLICT,
    Reason.INVALID_NETWORK_DATA: Phase.INVALID_NETWORK_DATA,
    Reason.SECRET_UNUSABLE: Phase.SECRET_UNUSABLE,
    Reason.NAME_TOO_LONG: Phase.NAME_TOO_LONG,
    Reason.BMC_BOOTS_BY_PXE: Phase.BMC_BOOTS_BY_PXE,
    Reason.UNKNOWN_BMC_DRIVER: Phase.UNKNOWN_BMC_DRIVER,
}
"""Every Warning that keeps a paused host paused, and the phase it shows (one each)."""

DONE = frozenset(
    {
        ProvisioningState.AVAILABLE,
        ProvisioningState.PREPARING,
        ProvisioningState.PROVISIONING,
        ProvisioningState.PROVISIONED,
        ProvisioningState.EXTERNALLY_PROVISIONED,
    }
)
"""BMO states past inspection: the ramdisk reached Ironic."""

PAST: dict[str, Phase] = {
    ProvisioningState.AVAILABLE: Phase.AVAILABLE,
    ProvisioningState.PREPARING: Phase.PREPARING,
    ProvisioningState.PROVISIONING: Phase.PROVISIONING,
    ProvisioningState.PROVISIONED: Phase.PROVISIONED,
    ProvisioningState.EXTERNALLY_PROVISIONED: Phase.EXTERNALLY_PROVISIONED,
    ProvisioningState.DEPROVISIONING: Phase.DEPROVISIONING,
    ProvisioningState.POWERING_OFF_BEFORE_DELETE: Phase.DELETING,
    ProvisioningState.DELETING: Phase.DELETING,
}
"""A released host past inspection shows BMO's own state (baremetal-operator
`apis/metal3.io/v1alpha1/baremetalhost_types.go`, `ProvisioningState`): a provisioned host is not
`available`, and one being deprovisioned or deleted says so."""


@dataclass(frozen=True, slots=True)
class Seen:
    """What `phase_of` needs besides the host: our objects and our latest Event's reason."""

    claims: tuple[IPClaim, ...]
    has_secret: bool
    latest_reason: str
    has_template: bool


def phase_of(host: BareMetalHost, seen: Seen, now: datetime, hang_after: float) -> Phase | None:
    """Pure: the host's phase, or None when it is not ours to list."""
    if gate(host).ours:
        return _paused_for_us(host, seen)
    if keys.RELEASED_AT_ANNOTATION not in host.annotations and not seen.claims:
        return _never_ours(host, seen)
    if on_host.hanging(host, now, hang_after):
        return Phase.STUCK
    past = PAST.get(host.status.provisioning.state)
    if past is not None:
        return past
    return Phase.INSPECTING if on_host.stalled(host) else Phase.RELEASED


def _paused_for_us(host: BareMetalHost, seen: Seen) -> Phase:
    if keys.RELEASED_AT_ANNOTATION in host.annotations and host.status.provisioning.state in DONE:
        return Phase.PAUSED_AGAIN
    blocked = BLOCKING.get(Reason(seen.latest_reason)) if seen.latest_reason in _REASONS else None
    if blocked is not None:
        return blocked
    if any(c.status.error_message for c in seen.claims):
        return Phase.CLAIM_FAILED
    if seen.has_secret or gate(host) is Gate.NAMED:
        return Phase.RENDERED
    return Phase.WAITING_FOR_CLAIMS if seen.claims else Phase.WAITING_FOR_TEMPLATE


def _never_ours(host: BareMetalHost, seen: Seen) -> Phase | None:
    """A host a template applies to that we never paused: `registered without pause` when it
    slipped through (the functions' `RegisteredUnpaused` Warning), else `not paused`; a host
    opted out with `keys.PREPROVISIONING_SCOPE_LABEL` is not listed."""
    opted_out = host.labels.get(keys.PREPROVISIONING_SCOPE_LABEL) == keys.SCOPE_DISABLED
    if gate(host) is not Gate.NOT_PAUSED or not seen.has_template or opted_out:
        return None
    if on_host.slipped(host):
        return Phase.UNPAUSED
    return None if host.status.provisioning.state in DONE else Phase.NOT_PAUSED


_REASONS = frozenset(r.value for r in Reason)
