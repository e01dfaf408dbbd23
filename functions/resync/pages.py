"""What one resync tick holds at a time: one page of hosts and those hosts' claims.

A tick used to LIST every host of every served namespace and every claim of ours there, and
hold them all while it ran: 98.4 MB at 5,000 hosts (issue 28). It pages instead, as client-go's
pager pages a LIST (`tools/pager/pager.go`, `ListPager.List`: `limit`, then `continue`), and
for each page LISTs the claims of that page's released hosts only (a set-based selector on our
host label, `in (...)`, a few dozen names a request), so what it holds does not grow with the
fleet.

The order is etcd's key order (namespace, then name; the API server returns a LIST in it),
started at the cursor (`cursor`) and wrapped around: first the hosts at or after it, then
those before it. A round therefore reaches every host once, whichever tick it starts in.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Sequence

from dhcpless import keys
from dhcpless.chain.cause import Listed
from dhcpless.chain.decide import reclaim
from dhcpless.errors import DhcplessError
from dhcpless.kube import Kube
from dhcpless.kube.resources import HOSTS
from dhcpless.models import BareMetalHost, IPClaim
from dhcpless.names import fits_label
from functions.resync.cursor import Key

log = logging.getLogger(__name__)
PAGE = 500
"""Hosts per LIST request, as client-go's pager (`tools/pager`, `defaultPageSize`)."""
NAMES_PER_LIST = 50
"""Host names in one claims selector: 50 label values of at most 63 characters keep the
request line well under the 8 KiB a proxy in front of the API server may accept."""


def key(host: BareMetalHost) -> Key:
    return host.namespace, host.name


def rotation(
    kube: Kube, watched: Sequence[str], start: Key | None, page: int = PAGE
) -> Iterator[list[BareMetalHost]]:
    """Pages of the hosts of `watched` (sorted) from `start` on, then those before it."""
    spaces = sorted(watched)
    if start is None:
        yield from _pages(kube, spaces, lambda k: True, page)
        return
    yield from _pages(kube, [n for n in spaces if n >= start[0]], lambda k: k >= start, page)
    yield from _pages(kube, [n for n in spaces if n <= start[0]], lambda k: k < start, page)


def _pages(
    kube: Kube, spaces: Sequence[str], keep: Callable[[Key], bool], page: int
) -> Iterator[list[BareMetalHost]]:
    for namespace in spaces:
        for listed in kube.list_pages(HOSTS, namespace, page=page):
            kept = [h for h in listed if keep(key(h))]
            if kept:
                yield kept


def claims_held(kube: Kube, hosts: Sequence[BareMetalHost]) -> dict[Key, tuple[IPClaim, ...]]:
    """Our claims of the page's hosts that have a record (`chain.decide.reclaim`), by host: a
    few LISTs per page, each by our labels and a set of host names. A namespace whose claims
    cannot be listed now is left out (its hosts are not re-claimed this tick; the next tries)."""
    wanted: dict[str, list[str]] = {}
    for host in hosts:
        if reclaim.recorded(host) is not None and fits_label(host.name):
            wanted.setdefault(host.namespace, []).append(host.name)
    found: dict[Key, tuple[IPClaim, ...]] = {}
    for namespace, names in sorted(wanted.items()):
        try:
            found |= _claims_of(kube, namespace, names)
        except DhcplessError as err:
            log.warning("resync: claims in %s not listed: %s", namespace, err.reason)
    return found


def _claims_of(kube: Kube, namespace: str, names: Sequence[str]) -> dict[Key, tuple[IPClaim, ...]]:
    """Each named host's claims of ours (none listed: an empty tuple), `NAMES_PER_LIST` a LIST."""
    found: dict[Key, list[IPClaim]] = {(namespace, name): [] for name in names}
    for at in range(0, len(names), NAMES_PER_LIST):
        for claim in kube.list_claims(
            namespace, _selector(namespace, names[at : at + NAMES_PER_LIST])
        ):
            owner = (namespace, claim.metadata.labels.get(keys.HOST_LABEL, ""))
            if owner in found:
                found[owner].append(claim)
    return {k: tuple(v) for k, v in found.items()}


def _selector(namespace: str, names: Sequence[str]) -> str:
    return (
        f"{keys.MANAGED_BY_LABEL}={keys.MANAGED_BY_VALUE},"
        f"{keys.HOST_NAMESPACE_LABEL}={namespace},{keys.HOST_LABEL} in ({','.join(names)})"
    )


def held_for(held: dict[Key, tuple[IPClaim, ...]], host: BareMetalHost) -> Listed | None:
    """The claims listed for the host (in its namespace: where its record's claims are)."""
    found = held.get(key(host))
    return None if found is None else (host.namespace, found)
