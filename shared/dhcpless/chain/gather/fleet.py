"""What a resync tick reads of the fleet: the namespaces it serves, a page of hosts at a
time, the claims of a page's recorded hosts, each served namespace's pools (the overlap
Warning), and where the last tick stopped (the cursor's ConfigMap). The tick's own logic
(`functions.resync`) reads nothing itself (issue 29). Paging as client-go's pager pages a
LIST (`tools/pager/pager.go`, `ListPager.List`: `limit`, then `continue`), so what a tick
holds does not grow with the fleet (`functions.resync.pages`). Reads only.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Sequence

from dhcpless import keys
from dhcpless.chain.cause import Key
from dhcpless.chain.predicates import ownership
from dhcpless.errors import DhcplessError
from dhcpless.kube.api import namespaces
from dhcpless.kube.api.client import Kube
from dhcpless.kube.api.resources import CONFIGMAPS, HOSTS
from dhcpless.models import BareMetalHost, IPClaim, IPPool
from dhcpless.models.configmap import ConfigMap
from dhcpless.names import fits_label

log = logging.getLogger(__name__)
PAGE = 500
"""Hosts per LIST request, as client-go's pager (`tools/pager`, `defaultPageSize`)."""
NAMES_PER_LIST = 50
"""Host names in one claims selector: 50 label values of at most 63 characters keep the
request line well under the 8 KiB a proxy in front of the API server may accept."""


def _key(host: BareMetalHost) -> Key:
    return host.namespace, host.name


def host_pages(
    kube: Kube, spaces: Sequence[str], keep: Callable[[Key], bool], page: int
) -> Iterator[list[BareMetalHost]]:
    for namespace in spaces:
        for listed in kube.list_pages(HOSTS, namespace, page=page):
            kept = [h for h in listed if keep(_key(h))]
            if kept:
                yield kept


def claims_held(kube: Kube, hosts: Sequence[BareMetalHost]) -> dict[Key, tuple[IPClaim, ...]]:
    """Our claims of the page's hosts that have a record (`chain.decide.reclaim`), by host: a
    few LISTs per page, each by our labels and a set of host names. A namespace whose claims
    cannot be listed now is left out (its hosts are not re-claimed this tick; the next tries)."""
    wanted: dict[str, list[str]] = {}
    for host in hosts:
        if ownership.recorded(host) is not None and fits_label(host.name):
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


def watched(kube: Kube, namespace: str, selector: str) -> list[str]:
    """Resync's one namespace, or under the cluster-wide option the Namespaces `selector`
    selects (one LIST)."""
    return namespaces.selected(kube, selector) if selector else [namespace]


def pools_of(kube: Kube, watched: Sequence[str]) -> dict[str, list[IPPool]]:
    """One LIST of IPPools per served namespace. A namespace that cannot be listed now is left
    out until the next tick."""
    pools = {}
    for namespace in watched:
        try:
            pools[namespace] = kube.list_pools(namespace)
        except DhcplessError as err:
            log.warning("resync: pools in %s not listed: %s", namespace, err.reason)
    return pools


def stored_cursor(kube: Kube, namespace: str) -> ConfigMap | None:
    """The cursor's ConfigMap (`functions.resync.cursor`), None when there is none."""
    return kube.find(CONFIGMAPS, namespace, keys.RESYNC_CURSOR_CONFIGMAP)
