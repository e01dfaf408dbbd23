"""The typed, frozen facts one host's decision rests on: what `gather` read, `decide` reads.

Pure values (models, no client). Every fact is gathered at most once per invocation
(`chain.gather`); `decide` never reads anything else (`chain.decide`). A fact that was not
needed for the host's gate is left at its empty default, never guessed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum

from dhcpless import render
from dhcpless.keys import DEFAULT_PROFILE, RamdiskProfile
from dhcpless.models import (
    BareMetalHost,
    IPAddress,
    IPAddressClaim,
    IPClaim,
    IPPool,
    NetworkTemplate,
    Secret,
)
from dhcpless.models.capm3 import Metal3Data
from dhcpless.models.refs import TemplateRef
from dhcpless.reasons import Reason
from dhcpless.refs import HostRef

Taken = IPClaim | IPAddressClaim | Secret
"""An object a create of ours found under our name (`HostFacts.taken`)."""


class Occasion(StrEnum):
    """Why the pipeline runs: it changes what is retried and reported, never the checks."""

    EVENT = "an event"
    """A claim's own event must not retry a failed claim: IPAM would fail it again at once."""
    POOL_CHANGED = "its pool changed"
    """The pool may have room now: failed claims are deleted to be claimed again."""
    TICK = "a resync tick"
    """Only a tick knows a wait is not IPAM's lag: retries, unanswered claims, hangs."""


@dataclass(frozen=True, slots=True)
class Found:
    """The template that applies to the host."""

    ref: TemplateRef
    template: NetworkTemplate


@dataclass(frozen=True, slots=True)
class Problem:
    """Why no template can be used now (becomes an Event; the host stays paused)."""

    reason: Reason
    message: str
    elsewhere: tuple[tuple[HostRef, str], ...] = ()
    """Warnings for other objects (a broken Metal3MachineTemplate: `gather.lookup`)."""


TemplateLookup = Found | Problem


@dataclass(frozen=True)
class External:
    """One host's CAPI claims by pool name and, once all are fulfilled, their addresses."""

    claims: Mapping[str, IPAddressClaim] = field(default_factory=dict)
    addresses: Mapping[str, render.Address] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Unanswered:
    """Why IPAM will not answer one claim: its pool is missing, or its pool's Cluster is."""

    claim: str
    namespace: str
    pool: str
    cluster: str | None = None
    """None: the pool itself is missing; else the Cluster the pool waits for."""
    nudge: bool = False
    """The pool's Cluster exists now but IPAM, which does not watch Clusters, has not looked
    again since: touch the claim (an IPClaim event makes IPAM reconcile its pool)."""
    has_annotations: bool = True
    external: bool = False
    """A CAPI IPAddressClaim its provider neither fulfilled nor failed."""


@dataclass(frozen=True)
class HostFacts:
    """Everything one decision about one host may look at, read once (`chain.gather`)."""

    host: BareMetalHost
    occasion: Occasion = Occasion.EVENT
    now: datetime | None = None
    template: TemplateLookup | None = None
    pools: tuple[render.PoolRef, ...] | Problem = ()
    claims: Mapping[str, IPClaim] = field(default_factory=dict)
    addresses: Mapping[str, IPAddress] = field(default_factory=dict)
    outside: External = field(default_factory=External)
    secret: Secret | None = field(default=None, repr=False)
    ippools: tuple[IPPool, ...] = ()
    taken: Mapping[str, Taken] = field(default_factory=dict, repr=False)
    """Objects this invocation already read outside `gather` (`taken_key` -> the object): what
    a create found under our name (ours only by UID, `chain.identity`, else a conflict or a
    reason to wait), or the Secret whose event brought us here. A Secret so known is the
    host's Secret fact, not read again."""
    unanswered: tuple[Unanswered, ...] = ()
    data: tuple[Metal3Data, ...] = ()
    """The live Metal3Data of a released host's Metal3Machine (`decide.lifecycle`)."""
    capm3_named: Mapping[str, IPClaim] = field(default_factory=dict)
    """Claims found under CAPM3's names `<metal3data>-<pool>` that are not this host's, by
    name, read only while a lend is pending (`predicates.collision`)."""
    gone: IPClaim | None = None
    """A claim of the host whose delete event brought us here (`decide.reclaim`)."""
    held: tuple[IPClaim, ...] | None = None
    """On a tick, a released host's claims listed by our labels in the namespace its record
    names (`decide.reclaim`); None: not read."""
    secret_missing: bool = False
    """A released host's own Secret, read because BMO cannot register it, is gone: the render
    facts are gathered to write it again (`decide.repair`)."""
    reclaimed: tuple[tuple[IPClaim, IPAddress | None], ...] = ()
    """A released host's answered re-claims (they asked for an address) with their IPAddress
    once fulfilled (`decide.restored`)."""
    hang_addresses: tuple[IPAddress, ...] | None = None
    """A hanging host's claimed addresses (a tick only); None: not hanging."""
    hang_seconds: float = 0.0
    """The threshold a tick judged the hang by (named in the Warning)."""
    ramdisk_profile: RamdiskProfile = DEFAULT_PROFILE
    """The fleet's ramdisk (settings): what a template without its own profile is judged for."""


def taken_key(kind: str, name: str) -> str:
    return f"{kind}/{name}"
