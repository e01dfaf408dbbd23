"""The one thin typed adapter over the official `kubernetes` client.

`Kube` is the generic operations (`kube.api.generic`) over the resource table
(`kube.api.resources`), plus one named call per thing the functions do, each a line over a generic
operation: callers see models from `dhcpless.models` and our error families
(`kube.transport.errors`), never a client exception or a raw dict. Tests run it against the sandbox
API server: no fakes of the client itself.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterator, Mapping
from typing import Any

from kubernetes.client import ApiClient

from dhcpless import limits
from dhcpless.keys import WATCH_CACHE_ENV
from dhcpless.kube.api import resources as r
from dhcpless.kube.api import versions
from dhcpless.kube.api.cached import CachedReads
from dhcpless.kube.api.generic import GenericKube, JsonPatch
from dhcpless.kube.cache import watchcache
from dhcpless.kube.transport import config, onewrite, timeouts
from dhcpless.kube.transport.errors import Verb
from dhcpless.kube.transport.timeouts import Timeout
from dhcpless.models import (
    BareMetalHost,
    CapiIPAddress,
    IPAddress,
    IPAddressClaim,
    IPClaim,
    IPPool,
    Metal3MachineTemplate,
    NetworkTemplate,
    Secret,
)
from dhcpless.models.refs import TemplateRef


def from_environment(function: str | None = None) -> Kube:
    """KUBECONFIG (or ~/.kube/config) when present, otherwise the in-cluster service account
    (`kube.transport.config`: without importing `kubernetes.config` unless the kubeconfig needs it).
    With the watch cache (`kube.cache.watchcache`) unless `DHCPLESS_WATCH_CACHE=off`: what the
    function processes use; `function` chooses the kinds cached (`watchcache.kinds_for`)."""
    api = ApiClient(config.configuration())
    on = watchcache.enabled(os.environ.get(WATCH_CACHE_ENV))
    kinds = watchcache.kinds_for(function)
    return Kube(api, cache=watchcache.WatchCache(api, kinds=kinds) if on else None)


class Kube(CachedReads, GenericKube):
    """Typed calls on BareMetalHosts, templates, IPAM objects, Secrets and Events. With a
    `cache`, templates and IPPools are read from it (`kube.api.cached`); without, every read is a
    request (what tests build unless they ask for the cache)."""

    def __init__(
        self,
        api_client: ApiClient,
        timeout: Timeout = limits.API_TIMEOUT,
        cache: watchcache.WatchCache | None = None,
    ) -> None:
        self.api_client = timeouts.bounded(api_client, timeout)  # no call waits forever
        onewrite.install(api_client.rest_client.pool_manager)  # head and body in one write
        self.cache = cache

    # --- BareMetalHost -----------------------------------------------------------------
    def get_host(self, namespace: str, name: str) -> BareMetalHost:
        return self.get(r.HOSTS, namespace, name)

    def find_host(self, namespace: str, name: str) -> BareMetalHost | None:
        """None when the host is not there (instead of catching `Gone`)."""
        return self.find(r.HOSTS, namespace, name)

    def list_hosts(self, namespace: str | None = None) -> list[BareMetalHost]:
        """One namespace, or all of them (only `resync` lists fleet-wide, once per ping)."""
        return self.list(r.HOSTS, namespace)

    def patch_host(self, namespace: str, name: str, patch: JsonPatch) -> BareMetalHost:
        """JSON patch, so `test` ops make it conditional (a failed test is PreconditionFailed)."""
        return self.patch(r.HOSTS, namespace, name, list(patch))

    # --- templates ---------------------------------------------------------------------
    def list_machine_templates(self, namespace: str) -> list[Metal3MachineTemplate]:
        return self.cached_list(r.MACHINE_TEMPLATES, namespace)

    def get_template(self, ref: TemplateRef) -> NetworkTemplate:
        res = dataclasses.replace(r.TEMPLATES[ref.plural], group=ref.group)
        return self.cached_get(res, ref.namespace, ref.name)

    # --- IPAM --------------------------------------------------------------------------
    def get_pool(self, namespace: str, name: str) -> IPPool:
        return self.get(r.IPPOOLS, namespace, name)

    def list_pools(self, namespace: str) -> list[IPPool]:
        """Every IPPool of one namespace (pre-unpause validation: do the pools overlap?)."""
        return self.cached_list(r.IPPOOLS, namespace)

    def get_claim(self, namespace: str, name: str) -> IPClaim:
        return self.get(r.IPCLAIMS, namespace, name)

    def find_claim(self, namespace: str, name: str) -> IPClaim | None:
        return self.find(r.IPCLAIMS, namespace, name)

    def get_address(self, namespace: str, name: str) -> IPAddress:
        return self.get(r.IPADDRESSES, namespace, name)

    def cached_address(self, namespace: str, name: str) -> IPAddress | None:
        """The watch cache's copy (None: not cached here, or not there yet); see
        `chain.gather.lookup` for when a copy may stand for a read."""
        return self.cached_find(r.IPADDRESSES, namespace, name)

    def create_claim(self, claim: IPClaim) -> IPClaim:
        """Raises AlreadyExists (an outcome) when a claim of that name is there already."""
        return self.create(r.IPCLAIMS, claim)

    def delete_claim(self, namespace: str, name: str) -> None:
        self.delete(r.IPCLAIMS, namespace, name)

    def list_claims(self, namespace: str, label_selector: str) -> list[IPClaim]:
        """Claims in one namespace matching a selector (scoped to one host by the caller)."""
        return self.list(r.IPCLAIMS, namespace, label_selector)

    def claim_pages(self, namespace: str, label_selector: str) -> Iterator[list[IPClaim]]:
        """The same claims a page at a time (every claim of ours in a namespace: a fleet)."""
        return self.list_pages(r.IPCLAIMS, namespace, label_selector)

    # --- CAPI IPAM (external pools, metal3.md §c.5) -----------------------------------
    # At v1beta2 when served, else v1beta1 (`kube.api.versions`).
    def create_capi_claim(self, claim: IPAddressClaim) -> IPAddressClaim:
        """Raises AlreadyExists (an outcome) when a claim of that name is there already."""
        return self.create(versions.served_at(self.api_client, r.CAPI_IPAM_CLAIMS), claim)

    def list_capi_claims(self, namespace: str, label_selector: str) -> list[IPAddressClaim]:
        """IPAddressClaims in one namespace matching a selector (one host's, by the caller)."""
        res = versions.served_at(self.api_client, r.CAPI_IPAM_CLAIMS)
        return self.list(res, namespace, label_selector)

    def get_capi_address(self, namespace: str, name: str) -> CapiIPAddress:
        res = versions.served_at(self.api_client, r.CAPI_IPAM_ADDRESSES)
        return self.get(res, namespace, name)

    # --- Secrets and Events ------------------------------------------------------------
    def get_secret(self, namespace: str, name: str) -> Secret:
        return self.get(r.SECRETS, namespace, name)

    def create_secret(self, secret: Secret) -> Secret:
        """Raises AlreadyExists (an outcome) when a Secret of that name is there already."""
        return self.create(r.SECRETS, secret)

    def update_secret(self, secret: Secret) -> Secret:
        """Replace, guarded by the resourceVersion the caller read (a conflict is Transient)."""
        return self.replace(r.SECRETS, secret)

    def create_event(self, namespace: str, body: Mapping[str, Any]) -> None:
        """A core/v1 Event; built by `kube.events.recorder`, which owns its shape."""
        self._send(Verb.CREATE, r.EVENTS, namespace, body=body, read=lambda _: None)
