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

from collections.abc import Iterator, Sequence

from dhcpless.chain.cause import Listed
from dhcpless.chain.gather import fleet
from dhcpless.kube import Kube
from dhcpless.models import BareMetalHost, IPClaim
from functions.resync.cursor import Key


def key(host: BareMetalHost) -> Key:
    return host.namespace, host.name


def rotation(
    kube: Kube, watched: Sequence[str], start: Key | None, page: int = fleet.PAGE
) -> Iterator[list[BareMetalHost]]:
    """Pages of the hosts of `watched` (sorted) from `start` on, then those before it."""
    spaces, read = sorted(watched), fleet.host_pages
    if start is None:
        yield from read(kube, spaces, lambda k: True, page)
        return
    yield from read(kube, [n for n in spaces if n >= start[0]], lambda k: k >= start, page)
    yield from read(kube, [n for n in spaces if n <= start[0]], lambda k: k < start, page)


def held_for(held: dict[Key, tuple[IPClaim, ...]], host: BareMetalHost) -> Listed | None:
    """The claims listed for the host (in its namespace: where its record's claims are)."""
    found = held.get(key(host))
    return None if found is None else (host.namespace, found)
