"""Pure predicates on one host, read from the host object alone: what gather asks before it
spends a read, and decide asks again on what was read (neither imports the other).

Why each holds is told where it is used: the pause and name corners in `decide.corner`, the
hang in `decide.hang`, lending in `decide.lifecycle`, re-claiming in `decide.reclaim`, the
lost Secret in `decide.repair` and the host that slipped past the pause in `decide.slipped`.
"""

from __future__ import annotations

from datetime import datetime

from dhcpless import keys, names
from dhcpless.chain.gate import Gate, gate, secret_name
from dhcpless.keys import ProvisioningState
from dhcpless.models import BareMetalHost
from dhcpless.models.meta import ObjectReference


def unclear_pause(host: BareMetalHost) -> str | None:
    """Pure: the pause value when it is empty or ours but for spaces or letter case."""
    value = host.annotations.get(keys.PAUSED_ANNOTATION)
    if value is None or value == keys.PREPROVISIONING_PAUSE:
        return None
    near = value.strip().lower()
    return value if near in ("", keys.PREPROVISIONING_PAUSE) else None


def bad_name(name: str) -> str | None:
    """Pure: why a host-named Secret name cannot name a Secret (None: it can)."""
    return names.name_problem(name)


def released_at(host: BareMetalHost) -> datetime | None:
    """When we released the host (our annotation), or None if we did not / it is unreadable."""
    text = host.annotations.get(keys.RELEASED_AT_ANNOTATION, "")
    try:
        return datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None


def stalled(host: BareMetalHost) -> bool:
    """Inspecting, or failed to register: where a ramdisk that cannot reach Ironic leaves it."""
    state = host.status.provisioning.state
    return state == ProvisioningState.INSPECTING or host.status.error_type == (
        keys.REGISTRATION_ERROR
    )


def registering_silently(host: BareMetalHost) -> bool:
    """Registering with no error: where Ironic refusing the data (or no BMC) leaves it."""
    return host.status.provisioning.state == ProvisioningState.REGISTERING and not stalled(host)


def hanging(host: BareMetalHost, now: datetime, threshold: float) -> bool:
    """Pure: released by us, unpaused, stalled or still registering, for `threshold` seconds."""
    since = released_at(host)
    if since is None or gate(host) is not Gate.NOT_PAUSED:
        return False
    if not (stalled(host) or registering_silently(host)):
        return False
    return (now - since).total_seconds() >= threshold


METAL3MACHINE = "Metal3Machine"


def done(host: BareMetalHost) -> bool:
    """Pure, on the event's object: labelled done by its release (`quiet`), not paused for us
    again and not associated since (a borrower's claims may still need lending)."""
    return (
        host.labels.get(keys.DONE_LABEL) == keys.DONE_VALUE
        and not gate(host).ours
        and borrower(host) is None
    )


def borrower(host: BareMetalHost) -> ObjectReference | None:
    """The Metal3Machine CAPM3 associated the host with (`spec.consumerRef`), if any."""
    ref = host.spec.consumer_ref
    return ref if ref is not None and ref.kind == METAL3MACHINE and ref.name else None


def borrower_name(host: BareMetalHost) -> str:
    """The name of the Metal3Machine borrowing the host ("" when none)."""
    ref = borrower(host)
    return ref.name if ref is not None else ""


def lendable(host: BareMetalHost) -> bool:
    """Pure, on the event's object: released by us, not paused for us, not being deleted, and
    associated with a Metal3Machine. Every other released host costs no read."""
    return (
        not gate(host).ours
        and keys.RELEASED_AT_ANNOTATION in host.annotations
        and not host.metadata.deletion_timestamp
        and borrower(host) is not None
    )


def released(host: BareMetalHost) -> bool:
    """Pure: released by us, not paused for us again, not being deleted."""
    return (
        not gate(host).ours
        and keys.RELEASED_AT_ANNOTATION in host.annotations
        and not host.metadata.deletion_timestamp
    )


def may_have_lost_secret(host: BareMetalHost) -> bool:
    """Pure, on the event's copy: a host we released, naming our default Secret, that BMO
    cannot register (its error may be that Secret gone): worth one GET of the Secret."""
    return (
        released(host)
        and host.spec.preprovisioning_network_data_name == secret_name(host)
        and host.status.error_type == keys.REGISTRATION_ERROR
    )


EARLY = frozenset(
    {ProvisioningState.NONE, ProvisioningState.REGISTERING, ProvisioningState.INSPECTING}
)
"""BMO states in which a host without network data is still waiting for a ramdisk to call
back (a new host has no state until BMO's first reconcile)."""


def slipped(host: BareMetalHost) -> bool:
    """Pure, on the event's object: in scope, unpaused, no network data, not yet inspected."""
    return (
        gate(host) is Gate.NOT_PAUSED
        and not host.spec.preprovisioning_network_data_name
        and host.labels.get(keys.PREPROVISIONING_SCOPE_LABEL) != keys.SCOPE_DISABLED
        and keys.RELEASED_AT_ANNOTATION not in host.annotations
        and host.status.provisioning.state in EARLY
        and not host.metadata.deletion_timestamp
    )
