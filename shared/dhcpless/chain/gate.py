"""Is this host ours to work on? The pause annotation is the gate (DESIGN §3)."""

from __future__ import annotations

from enum import StrEnum

from dhcpless import keys, names
from dhcpless.models import BareMetalHost


class Gate(StrEnum):
    """Where a host stands with respect to pre-provisioning."""

    NOT_PAUSED = "not paused"
    FOREIGN_PAUSE = "paused by someone else"
    DELETING = "being deleted"
    NAMED = "paused for us, network data Secret named"
    WAITING = "paused for us, no network data yet"

    @property
    def ours(self) -> bool:
        return self in (Gate.NAMED, Gate.WAITING)


def gate(host: BareMetalHost) -> Gate:
    """Only the exact value `metal3.io/preprovisioning` is ours; any other pause is left alone."""
    pause = host.annotations.get(keys.PAUSED_ANNOTATION)
    if pause is None:
        return Gate.NOT_PAUSED
    if pause != keys.PREPROVISIONING_PAUSE:
        return Gate.FOREIGN_PAUSE
    if host.metadata.deletion_timestamp:
        return Gate.DELETING
    return Gate.NAMED if host.spec.preprovisioning_network_data_name else Gate.WAITING


def secret_name(host: BareMetalHost) -> str:
    """The Secret we write for a host, in its namespace: `<host>` + keys.SECRET_NAME_SUFFIX,
    shortened with a hash when that is too long for a name (`dhcpless.names.secret_name`)."""
    return names.secret_name(host.name)
