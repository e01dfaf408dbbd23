"""Why one host's pipeline runs: one frozen cause per entry, built by its function.

Each entry (a host added or changed, its claims answered, a claim deleted, a pool changed, a
CAPI claim answered, a Secret written, a resync tick) knows a few things about the host before
the pipeline reads anything: the claim whose delete brought it, the claims it listed, the
Secret it read, whether the host was just added. It says so in its cause, and `gather` seeds
the host's facts from the cause (`seeds`), not from keyword flags per caller. Modelled on
kopf's causes (`kopf/_core/intents/causes.py`: one frozen dataclass per kind of cause, made
once at the entry and read by the handlers). Pure values: no client, no reads.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from dhcpless.chain.facts import Occasion
from dhcpless.models import BareMetalHost, IPClaim, IPPool, Secret

Key = tuple[str, str]
"""A host by (namespace, name): what an entry knows when the pipeline is to read the host."""

Listed = tuple[str, Sequence[IPClaim]]
"""Claims an entry listed in one namespace: (namespace, claims); by a host's labels
(ipclaim-fulfilment), or every claim of ours of a page's hosts there (resync's pages)."""


@dataclass(frozen=True, slots=True)
class HostChanged:
    """A BareMetalHost event (host-registration). `added`: its ADD event, so no claim of ours
    is expected yet: the first round creates them without listing them (`chain.pipeline`).
    `seen`: the event's own copy (Resource mode), on which the function took its cheap exit;
    None (Reference mode): the pipeline takes it on the host as read (`worth`)."""

    added: bool = False
    seen: BareMetalHost | None = None


@dataclass(frozen=True, slots=True)
class Metal3DataMade:
    """CAPM3 made the Metal3Data of the Metal3Machine the host serves: lend at once."""

    namespace: str
    claim: str
    """The Metal3Data's claim name: the Metal3Machine's (`chain.decide.lifecycle`)."""


@dataclass(frozen=True, slots=True)
class ClaimsAnswered:
    """A claim of ours was answered (ipclaim-fulfilment): the claim as its event carried it
    and, once `chain.gather.concerned` found every claim of its host answered, the claims as
    listed there (not listed again)."""

    claim: IPClaim
    listed: Listed | None = None


@dataclass(frozen=True, slots=True)
class ClaimDeleted:
    """A claim of the host was deleted: the claim as its delete event carried it."""

    claim: IPClaim


@dataclass(frozen=True, slots=True)
class PoolChanged:
    """A pool the host has a failed claim in was added or changed: it may have room now.
    `room`: the addresses it can still hand out (`chain.decide.heal.free_addresses`; None: no
    bound), worked out by the function on the pool it has."""

    pool: IPPool
    room: int | None = None


@dataclass(frozen=True, slots=True)
class CapiClaimAnswered:
    """A CAPI IPAddressClaim of the host was answered or deleted."""


@dataclass(frozen=True, slots=True)
class SecretWritten:
    """A Secret was written (secret-readiness; only its reference arrives): read once, by
    `chain.gather.concerned`, which finds the hosts using it; not read again."""

    namespace: str
    name: str
    secret: Secret | None = None


@dataclass(frozen=True, slots=True)
class ResyncTick:
    """A resync tick found the host due. `listed`: its page's claims of the host, if it has a
    record (`functions.resync.pages`); `hang_seconds`: the tick's hang threshold."""

    now: datetime
    hang_seconds: float = 0.0
    listed: Listed | None = None


Cause = (
    HostChanged
    | Metal3DataMade
    | ClaimsAnswered
    | ClaimDeleted
    | PoolChanged
    | CapiClaimAnswered
    | SecretWritten
    | ResyncTick
)
"""Every reason a host's pipeline runs; `seeds` handles each."""

Entry = Metal3DataMade | SecretWritten | ClaimsAnswered | PoolChanged
"""The causes whose hosts are found by reading (`chain.pipeline.run`)."""


@dataclass(frozen=True, slots=True)
class Seeds:
    """What `gather` takes from a cause: the facts it starts from and the reads it spares."""

    occasion: Occasion = Occasion.EVENT
    now: datetime | None = None
    gone: IPClaim | None = None
    hang_seconds: float = 0.0
    known: tuple[Secret, ...] = ()
    """Secrets the entry read already: not read again; a waiting host's Secret so known
    releases nothing (`decide.verify`: only the claims' path, which reads the render facts,
    can check it), so the render facts are not read."""
    listed: Listed | None = None
    """The host's claims the entry listed already (first round only)."""
    fresh: bool = False
    """The host was just added: its claims are not listed (first round only)."""


def seeds(cause: Cause) -> Seeds:
    """Pure: the seeds of each kind of cause."""
    match cause:
        case HostChanged(added=added):
            return Seeds(fresh=added)
        case ClaimsAnswered(listed=listed):
            return Seeds(listed=listed)
        case ClaimDeleted(claim=claim):
            return Seeds(gone=claim)
        case PoolChanged():
            return Seeds(occasion=Occasion.POOL_CHANGED)
        case SecretWritten(secret=secret):
            return Seeds(known=() if secret is None else (secret,))
        case ResyncTick(now=now, hang_seconds=hang, listed=listed):
            return Seeds(Occasion.TICK, now, hang_seconds=hang, listed=listed)
        case Metal3DataMade() | CapiClaimAnswered():
            return Seeds()


def again(seeds: Seeds) -> Seeds:
    """Pure: the seeds of a later round (`chain.pipeline`): the host and its claims are read
    afresh, so what the entry listed, or guessed of a just-added host, no longer holds."""
    return Seeds(seeds.occasion, seeds.now, seeds.gone, seeds.hang_seconds, seeds.known)
