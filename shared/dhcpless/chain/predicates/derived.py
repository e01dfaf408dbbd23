"""Names derived from a host and its template's pools, checked before any is used (issue 14,
finding 3).

A pool name from a template becomes part of a claim name and a URL (`stalls` GETs the pool of
an unanswered claim): one the API would refuse is the template's fault (`InvalidTemplate`), and
no claim or request is made for it. A host whose name cannot be a label value, or whose
`<host>-<pool>` claim name would be too long, stays paused with one `NameTooLong` Warning naming
the name and the limit (`dhcpless.names` holds the rules). Events are deduplicated by name, so
each redelivery of the same decision writes nothing new.
"""

from __future__ import annotations

from collections.abc import Sequence

from dhcpless import names, render
from dhcpless.chain.facts import Found, Problem
from dhcpless.models import BareMetalHost
from dhcpless.reasons import Reason


def checked(
    host: str, where: str, pools: Sequence[render.PoolRef]
) -> tuple[render.PoolRef, ...] | Problem:
    """Pure: `pools` when every derived name fits, else the Problem that keeps the host paused."""
    for pool in pools:
        if (bad := names.pool_name_problem(pool.name)) is not None:
            return Problem(Reason.INVALID_TEMPLATE, f"{where}: {bad}")
    too_long = names.host_name_problem(host, [p.name for p in pools])
    if too_long is not None:
        return Problem(Reason.NAME_TOO_LONG, too_long)
    return tuple(pools)


def servable(host: str) -> bool:
    """Whether label-selected lookups for this host are requests the API accepts at all."""
    return names.host_name_problem(host) is None


def pools_for(host: BareMetalHost, found: Found) -> tuple[render.PoolRef, ...] | Problem:
    """The pools the template references for this host, or why it cannot be used. Pools of
    another kind than Metal3's IPPool are external (CAPI IPAM, `decide.external`)."""
    where = f"{found.ref.plural.kind} {found.ref.namespace}/{found.ref.name}"
    if found.template.network_data is None:
        return Problem(Reason.INVALID_TEMPLATE, f"{where} has no network data")
    try:
        pools = render.referenced_pools(found.template.network_data, host)
    except render.RenderError as err:
        return Problem(Reason.INVALID_TEMPLATE, f"{where}: {err}")
    return checked(host.name, where, pools)
