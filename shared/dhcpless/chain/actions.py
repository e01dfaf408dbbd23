"""The frozen action values `decide` returns and `act` performs (tests compare values)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from dhcpless.keys import DEFAULT_PROFILE, NetworkDataFormat, RamdiskProfile
from dhcpless.models.meta import OwnerReference
from dhcpless.reasons import Reason
from dhcpless.refs import HostRef


@dataclass(frozen=True, slots=True)
class CreateIPClaim:
    """Claim one address from `pool` for `host`, named `<host>-<pool>` in the pool's namespace."""

    namespace: str
    name: str
    pool: str
    host: HostRef
    template: str = ""
    """The template the claim is for, recorded on the claim when ..."""
    pools: tuple[str, ...] = ()
    """... the host claims from pools of it (empty: nothing recorded)."""
    address: str = ""
    """The address to ask IPAM for (`keys.REQUESTED_IP_ANNOTATION`; "": any)."""


@dataclass(frozen=True, slots=True)
class WriteSecret:
    """Create the host's network-data Secret; `network_data` is JSON and never logged."""

    namespace: str
    name: str
    host: HostRef
    network_data: str = field(repr=False)
    data_format: str = NetworkDataFormat.OPENSTACK
    """The format's name (`render.formats.registry`); recorded on the Secret when not OpenStack."""
    other_keys: tuple[tuple[str, str], ...] = field(default=(), repr=False)
    """(Secret key, text) the format writes besides `network_data` (`nmstate`: the key
    `nmstate`); never logged."""
    claimed: str = ""
    """`keys.CLAIMED_POOLS_ANNOTATION`: the pools whose claims gave the data ("": none)."""
    addresses: str = ""
    """`keys.CLAIMED_ADDRESSES_ANNOTATION`: each Metal3 pool's address in the data ("": none)."""
    replace: str | None = None
    """The resourceVersion of a Secret of ours to replace (`decide.verify`); None: create."""
    ramdisk_profile: RamdiskProfile = DEFAULT_PROFILE
    """`keys.RAMDISK_PROFILE_ANNOTATION`: the ramdisk the data was judged for."""


class DoneMark(StrEnum):
    """What a release does with `keys.DONE_LABEL` (`chain.decide.quiet`)."""

    KEEP = "keep"
    ADD = "add"
    REMOVE = "remove"


@dataclass(frozen=True, slots=True)
class ReleaseHost:
    """Point the host at its Secret and remove our pause, in one conditional JSON patch.

    `resource_version` is what the decision was based on when the name still has to be set:
    the patch tests it, so nobody else's concurrent write is overwritten.
    """

    host: HostRef
    secret_name: str
    set_name: bool
    resource_version: str
    claimed: str = ""
    """Recorded on the host as `keys.CLAIMED_POOLS_ANNOTATION` ("": nothing to record)."""
    done: DoneMark = DoneMark.KEEP
    """Mark the host done (nothing left for us) or remove the mark, in the same patch."""
    has_labels: bool = True
    """The host as read has a labels map (else the mark adds the map, guarded)."""


@dataclass(frozen=True, slots=True)
class RecordEvent:
    """A core/v1 Event on the host (why it stays paused, or what just happened)."""

    host: HostRef
    reason: Reason
    message: str


@dataclass(frozen=True, slots=True)
class DeleteIPClaim:
    """Delete one of our claims (IP lifecycle release, or a failed claim to be retried)."""

    namespace: str
    name: str
    host: HostRef


@dataclass(frozen=True, slots=True)
class CreateIPAddressClaim:
    """Claim from an external (CAPI IPAM) pool: `<host>-<pool>`, `spec.poolRef` = the template's
    reference, in the pool's namespace (metal3.md §c.5)."""

    namespace: str
    name: str
    pool: str
    kind: str
    api_group: str
    host: HostRef


@dataclass(frozen=True, slots=True)
class LendClaim:
    """Add CAPM3's Metal3Data as a second owner of our claim (`chain.decide.lifecycle`): one JSON
    patch that tests `resource_version`, so no concurrent change to the owners is lost."""

    namespace: str
    name: str
    host: HostRef
    data_name: str
    data_uid: str
    resource_version: str
    owners: tuple[OwnerReference, ...] = ()
    """The claim's ownerReferences as read; the patch writes them plus the Metal3Data."""


@dataclass(frozen=True, slots=True)
class NudgeClaim:
    """Touch one of our unanswered claims (`keys.NUDGED_ANNOTATION`) so IPAM looks again."""

    namespace: str
    name: str
    host: HostRef
    at: str
    has_annotations: bool = True


Action = (
    CreateIPClaim
    | WriteSecret
    | ReleaseHost
    | RecordEvent
    | DeleteIPClaim
    | CreateIPAddressClaim
    | LendClaim
    | NudgeClaim
)
