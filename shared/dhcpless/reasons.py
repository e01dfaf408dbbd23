"""Why a host is where it is: the `reason` and `type` of the core/v1 Events we write.

Pure values (no client): decisions name a Reason, the recorder (`kube.recorder`) writes it.
"""

from __future__ import annotations

from enum import StrEnum


class Severity(StrEnum):
    """core/v1 Event `type`."""

    NORMAL = "Normal"
    WARNING = "Warning"


class Reason(StrEnum):
    """Event `reason` (CamelCase, as Kubernetes reasons are). Progress first, then problems."""

    TEMPLATE_CHOSEN = "TemplateChosen"
    CLAIMS_CREATED = "ClaimsCreated"
    NETWORK_DATA_RENDERED = "NetworkDataRendered"
    HOST_RELEASED = "HostReleased"
    NO_TEMPLATE = "NoTemplate"
    AMBIGUOUS_TEMPLATE = "AmbiguousTemplate"
    INVALID_TEMPLATE = "InvalidTemplate"
    CLAIM_FAILED = "ClaimFailed"
    RENDER_FAILED = "RenderFailed"
    SECRET_MISSING = "SecretMissing"
    SECRET_INVALID = "SecretInvalid"
    SECRET_CONFLICT = "SecretConflict"
    INVALID_NETWORK_DATA = "InvalidNetworkData"
    HOST_HANGS = "HostHangs"
    CLAIM_RETRIED = "ClaimRetried"
    REGISTERED_UNPAUSED = "RegisteredUnpaused"
    MANIFEST_REPAUSED = "ManifestRepaused"
    CLAIM_CONFLICT = "ClaimConflict"
    CLAIM_LENT = "ClaimLent"
    CLAIM_UNANSWERED = "ClaimUnanswered"
    CLAIM_DELETED = "ClaimDeleted"
    WAITING_FOR_DELETION = "WaitingForDeletion"
    SECRET_UNUSABLE = "SecretUnusable"
    """A Secret the host names cannot be used; the cause is not said (`chain.decide.messages`)."""
    NAME_TOO_LONG = "NameTooLong"
    """A name or label value derived from the host would exceed the API's limit (`names`)."""
    SECRET_UNVERIFIED = "SecretUnverified"
    """A Secret under our name is not what the host's claims render (`chain.decide.verify`)."""
    SECRET_RERENDERED = "SecretRerendered"
    """A Secret of ours was rendered again from the host's claims (`chain.decide.verify`)."""
    SECRET_RESTORED = "SecretRestored"
    """Our Secret of a released host, deleted, was written again (`chain.decide.repair`)."""
    CLAIM_RELEASED = "ClaimReleased"
    """A waiting host's claim of a pool its template no longer uses, deleted (`decide.claims`)."""
    PAUSE_NOT_OURS = "PauseNotOurs"
    """A pause value that is ours but for spaces or case, or empty (`chain.decide.corner`)."""
    POOLS_OVERLAP = "PoolsOverlap"
    """IPPools of two served namespaces can hand out one address (`chain.decide.overlaps`)."""
    ADDRESS_NOT_RESTORED = "AddressNotRestored"
    """A re-claim did not get the host's own address back (`chain.decide.restored`)."""
    NAME_COLLISION = "NameCollision"
    """CAPM3's `<metal3data>-<pool>` is one of our claims (`chain.predicates.collision`)."""
    LENDING_REFUSED = "LendingRefused"
    """CAPM3 would look at another host's claim first: nothing lent (`predicates.collision`)."""
    BMC_BOOTS_BY_PXE = "BMCBootsByPXE"
    """The host's BMC driver boots by PXE/iPXE: no static data reaches it (`chain.decide.bmc`)."""
    UNKNOWN_BMC_DRIVER = "UnknownBMCDriver"
    """A BMC driver BMO removed or never had: how it boots is unknown (`chain.decide.bmc`)."""

    @property
    def severity(self) -> Severity:
        return Severity.NORMAL if self in _PROGRESS else Severity.WARNING


_PROGRESS = frozenset(
    {
        Reason.TEMPLATE_CHOSEN,
        Reason.CLAIMS_CREATED,
        Reason.NETWORK_DATA_RENDERED,
        Reason.HOST_RELEASED,
        Reason.CLAIM_RETRIED,
        Reason.CLAIM_LENT,
        Reason.SECRET_RERENDERED,
        Reason.SECRET_RESTORED,
        Reason.CLAIM_RELEASED,
    }
)
