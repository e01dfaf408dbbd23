"""When CAPM3's own claim name is one of ours: hosts named `<template>-<n>` (issue 25, item 1).

Pure: facts in, findings out. Upstream facts this rests on (cluster-api-provider-metal3):

* `baremetal/metal3datatemplate_manager.go` `createData` names a Metal3Data
  `<template>-<index>` (the lowest free index), whichever host it is for.
* `baremetal/metal3data_manager.go` `ensureM3IPClaim` GETs `<metal3data>-<pool>` *before*
  `<bmh>-<pool>`; `addressFromM3Claim` uses a claim only if one of its ownerReferences has the
  Metal3Data's UID, else requeues ("same name but different UID") for ever.
* `releaseAddressFromM3Pool` deletes, at deprovisioning, the claims carrying the Metal3Data's
  data-name label **and the claim named `<metal3data>-<pool>`, whoever made it**.

So with a template `worker` and hosts `worker-0`, `worker-1`, … CAPM3's name `<metal3data>-<pool>`
is one of our `<bmh>-<pool>` claims (`names.claim_name`):

* `OWN`: the Metal3Data of host `worker-0` is itself named `worker-0`. CAPM3 finds our claim
  first and, lent, uses it (the right address); but at deprovisioning it deletes that claim by
  name while the host (fast track, cleaning) still uses the address. We lend and warn.
* `OTHER`: the Metal3Data of host `worker-1` is named `worker-0`: CAPM3 finds host `worker-0`'s
  claim. Lent to this Metal3Data it would put two machines on one address; not lent, CAPM3
  waits for ever, and at this host's deprovisioning deletes host `worker-0`'s claim. We never
  lend a claim to another host's Metal3Data, refuse lending this host's (CAPM3 does not look at
  them) and warn on both hosts.

The fix is in naming, which only the user can change (README "Naming hosts and templates").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum

from dhcpless import keys
from dhcpless.models import IPClaim
from dhcpless.models.capm3 import Metal3Data


class Clash(StrEnum):
    """Whose claim CAPM3's `<metal3data>-<pool>` name is."""

    OWN = "own"
    """This host's own claim: used now, deleted by name at deprovisioning."""
    OTHER = "other"
    """Another host's claim: CAPM3 waits for ever, and may delete it at deprovisioning."""


@dataclass(frozen=True, slots=True)
class Collision:
    """One CAPM3 claim name that is one of our hosts' claims."""

    clash: Clash
    data: str
    """The Metal3Data's name (`<template>-<index>`)."""
    template: str
    """The Metal3DataTemplate the Metal3Data was made from."""
    claim: str
    """`<metal3data>-<pool>`: the name CAPM3 looks up first."""
    pool: str
    holder: str
    """The host whose claim it is (ours, by our host label)."""


def capm3_claim_name(data: str, pool: str) -> str:
    """The name `ensureM3IPClaim` looks up first and `releaseAddressFromM3Pool` deletes."""
    return f"{data}-{pool}"


def holder(claim: IPClaim) -> str | None:
    """The host an IPClaim of ours is for (our host label), or None when it is not ours."""
    labels = claim.metadata.labels
    if labels.get(keys.MANAGED_BY_LABEL) != keys.MANAGED_BY_VALUE:
        return None
    return labels.get(keys.HOST_LABEL) or None


def find(
    host: str,
    data: Iterable[Metal3Data],
    own: Mapping[str, IPClaim],
    named: Mapping[str, IPClaim],
) -> tuple[Collision, ...]:
    """Every `<metal3data>-<pool>` of `host`'s Metal3Data that is one of our claims.

    `own`: this host's claims by pool; `named`: claims of ours read under CAPM3's names that are
    not this host's (`gather.released.capm3_named`), by claim name.
    """
    found: list[Collision] = []
    for item in data:
        name, template = item.metadata.name, item.spec.template.name
        for pool, claim in sorted(own.items()):
            wanted = capm3_claim_name(name, pool)
            if claim.metadata.name == wanted:
                found.append(Collision(Clash.OWN, name, template, wanted, pool, host))
                continue
            other = named.get(wanted)
            who = holder(other) if other is not None else None
            if who is not None and who != host:
                found.append(Collision(Clash.OTHER, name, template, wanted, pool, who))
    return tuple(found)


def wanted_names(host: str, data: Iterable[Metal3Data], pools: Iterable[str]) -> tuple[str, ...]:
    """The CAPM3 names worth one GET each: `<metal3data>-<pool>` unless it is the host's own
    claim's name (already listed) — what `find` needs in `named`."""
    pools = tuple(pools)
    names = {
        capm3_claim_name(d.metadata.name, p) for d in data for p in pools if d.metadata.name != host
    }
    return tuple(sorted(names))


def message(found: Collision, subject: str) -> str:
    """The Warning's text on `subject` (the host whose Metal3Data it is, or the holder)."""
    fix = (
        "name hosts so that no host is called <template>-<number> of a Metal3DataTemplate "
        '(README "Naming hosts and templates")'
    )
    if found.clash is Clash.OWN:
        return (
            f"Metal3Data {found.data} of Metal3DataTemplate {found.template} has this host's name: "
            f"CAPM3 uses IPClaim {found.claim} (lent), but at deprovisioning deletes it by name "
            f"(releaseAddressFromM3Pool) while the host still uses the address; {fix}"
        )
    if subject == found.holder:
        return (
            f"IPClaim {found.claim} of this host is the name CAPM3 looks up first for Metal3Data "
            f"{found.data} of Metal3DataTemplate {found.template}, which is another host's: "
            f"not lent to it; at that host's deprovisioning CAPM3 deletes this claim by name; {fix}"
        )
    return (
        f"Lending refused: CAPM3 looks up IPClaim {found.claim} (host {found.holder}'s) for this "
        f"host's Metal3Data {found.data} of Metal3DataTemplate {found.template} before this "
        f'host\'s claims, and waits for ever ("same name but different UID"); {fix}'
    )
