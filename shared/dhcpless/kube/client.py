"""The one thin typed adapter over the official `kubernetes` client.

Only the calls the functions make, each returning a model from `dhcpless.models` and each
wrapped in `translated(...)`, so callers see our error families (`kube.errors`) and never a
client exception or a raw dict. Tests run it against the sandbox API server: no fakes of the
client itself.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from kubernetes.client import ApiClient

from dhcpless import keys, limits
from dhcpless.errors import Transient
from dhcpless.kube import config, core, timeouts
from dhcpless.kube.errors import Verb, translated
from dhcpless.kube.timeouts import Timeout
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
    network_template_from_k8s,
)
from dhcpless.models.base import K8sObject
from dhcpless.resolve import TemplateRef

if TYPE_CHECKING:
    from kubernetes.client import CustomObjectsApi

M = TypeVar("M", bound=K8sObject)
JSON_PATCH = "application/json-patch+json"
MERGE_PATCH = "application/merge-patch+json"
JsonPatch = Sequence[Mapping[str, Any]]


def from_environment() -> Kube:
    """KUBECONFIG (or ~/.kube/config) when present, otherwise the in-cluster service account
    (`kube.config`: without importing `kubernetes.config` unless the kubeconfig needs it)."""
    return Kube(ApiClient(config.configuration()))


class Kube:
    """Typed calls on BareMetalHosts, templates, IPAM objects, Secrets and Events."""

    def __init__(self, api_client: ApiClient, timeout: Timeout = limits.API_TIMEOUT) -> None:
        self.api_client = timeouts.bounded(api_client, timeout)  # no call waits forever

    @functools.cached_property
    def _custom(self) -> CustomObjectsApi:
        """Built on first use: its module costs a cold start ~30 ms (one `validate_call` per
        method), and the reads a function's first event makes go through `core` instead."""
        from kubernetes.client import CustomObjectsApi

        return CustomObjectsApi(self.api_client)

    # --- BareMetalHost -----------------------------------------------------------------
    def get_host(self, namespace: str, name: str) -> BareMetalHost:
        with translated(Verb.GET, f"BareMetalHost {namespace}/{name}"):
            raw = core.request(
                self.api_client, "GET", core.HOST, {"namespace": namespace, "name": name}
            )
            return BareMetalHost.from_k8s(_mapping(raw))

    def list_hosts(self, namespace: str | None = None) -> list[BareMetalHost]:
        """One namespace, or all of them (only `resync` lists fleet-wide, once per ping)."""
        with translated(Verb.LIST, f"BareMetalHosts in {namespace or 'all namespaces'}"):
            if namespace is None:
                raw = core.request(self.api_client, "GET", core.ALL_HOSTS, {})
            else:
                raw = core.request(self.api_client, "GET", core.HOSTS, {"namespace": namespace})
            return [BareMetalHost.from_k8s(item) for item in _items(raw)]

    def patch_host(self, namespace: str, name: str, patch: JsonPatch) -> BareMetalHost:
        """JSON patch, so `test` ops make it conditional (a failed test is PreconditionFailed)."""
        with translated(Verb.PATCH, f"BareMetalHost {namespace}/{name}"):
            raw = self._custom.patch_namespaced_custom_object(
                keys.BMO_GROUP, keys.BMO_VERSION, namespace, "baremetalhosts", name,
                [dict(op) for op in patch], _content_type=JSON_PATCH,
            )  # fmt: skip
            return BareMetalHost.from_k8s(_mapping(raw))

    # --- templates ---------------------------------------------------------------------
    def list_machine_templates(self, namespace: str) -> list[Metal3MachineTemplate]:
        with translated(Verb.LIST, f"Metal3MachineTemplates in {namespace}"):
            raw = self._custom.list_namespaced_custom_object(
                keys.CAPM3_GROUP, keys.CAPM3_VERSION, namespace, "metal3machinetemplates"
            )
            return [Metal3MachineTemplate.from_k8s(item) for item in _items(raw)]

    def get_template(self, ref: TemplateRef) -> NetworkTemplate:
        with translated(Verb.GET, f"{ref.plural.kind} {ref.namespace}/{ref.name}"):
            raw = self._custom.get_namespaced_custom_object(
                ref.group, keys.CAPM3_VERSION, ref.namespace, ref.plural.value, ref.name
            )
            return network_template_from_k8s(_mapping(raw))

    # --- IPAM --------------------------------------------------------------------------
    def get_pool(self, namespace: str, name: str) -> IPPool:
        return self._get_ipam(IPPool, "ippools", namespace, name)

    def list_pools(self, namespace: str) -> list[IPPool]:
        """Every IPPool of one namespace (pre-unpause validation: do the pools overlap?)."""
        with translated(Verb.LIST, f"IPPools in {namespace}"):
            raw = self._custom.list_namespaced_custom_object(
                keys.IPAM_GROUP, keys.IPAM_VERSION, namespace, "ippools"
            )
            return [IPPool.from_k8s(item) for item in _items(raw)]

    def get_claim(self, namespace: str, name: str) -> IPClaim:
        return self._get_ipam(IPClaim, "ipclaims", namespace, name)

    def get_address(self, namespace: str, name: str) -> IPAddress:
        return self._get_ipam(IPAddress, "ipaddresses", namespace, name)

    def list_addresses(self, namespace: str, label_selector: str) -> list[IPAddress]:
        """IPAddresses carry their claim's labels (IPAM copies them): one host's, by selector."""
        return self._list_ipam(IPAddress, "ipaddresses", namespace, label_selector)

    def create_claim(self, claim: IPClaim) -> IPClaim:
        """Raises AlreadyExists (an outcome) when a claim of that name is there already."""
        namespace = claim.metadata.namespace or "default"
        with translated(Verb.CREATE, f"IPClaim {namespace}/{claim.metadata.name}"):
            raw = self._custom.create_namespaced_custom_object(
                keys.IPAM_GROUP, keys.IPAM_VERSION, namespace, "ipclaims", claim.to_k8s()
            )
            return IPClaim.from_k8s(_mapping(raw))

    def delete_claim(self, namespace: str, name: str) -> None:
        with translated(Verb.DELETE, f"IPClaim {namespace}/{name}"):
            self._custom.delete_namespaced_custom_object(
                keys.IPAM_GROUP, keys.IPAM_VERSION, namespace, "ipclaims", name
            )

    def list_claims(self, namespace: str, label_selector: str) -> list[IPClaim]:
        """Claims in one namespace matching a selector (scoped to one host by the caller)."""
        return self._list_ipam(IPClaim, "ipclaims", namespace, label_selector)

    def _list_ipam(
        self, model: type[M], plural: str, namespace: str, label_selector: str
    ) -> list[M]:
        with translated(Verb.LIST, f"{plural} in {namespace}"):
            raw = self._custom.list_namespaced_custom_object(
                keys.IPAM_GROUP, keys.IPAM_VERSION, namespace, plural,
                label_selector=label_selector,
            )  # fmt: skip
            return [model.from_k8s(item) for item in _items(raw)]

    def _get_ipam(self, model: type[M], plural: str, namespace: str, name: str) -> M:
        with translated(Verb.GET, f"{plural} {namespace}/{name}"):
            raw = self._custom.get_namespaced_custom_object(
                keys.IPAM_GROUP, keys.IPAM_VERSION, namespace, plural, name
            )
            return model.from_k8s(_mapping(raw))

    # --- CAPI IPAM (external pools, metal3.md §c.5) -----------------------------------
    def create_capi_claim(self, claim: IPAddressClaim) -> IPAddressClaim:
        """Raises AlreadyExists (an outcome) when a claim of that name is there already."""
        namespace = claim.metadata.namespace or "default"
        with translated(Verb.CREATE, f"IPAddressClaim {namespace}/{claim.metadata.name}"):
            raw = self._custom.create_namespaced_custom_object(
                keys.CAPI_IPAM_GROUP, keys.CAPI_IPAM_VERSION, namespace, "ipaddressclaims",
                claim.to_k8s(),
            )  # fmt: skip
            return IPAddressClaim.from_k8s(_mapping(raw))

    def list_capi_claims(self, namespace: str, label_selector: str) -> list[IPAddressClaim]:
        """IPAddressClaims in one namespace matching a selector (one host's, by the caller)."""
        with translated(Verb.LIST, f"IPAddressClaims in {namespace}"):
            raw = self._custom.list_namespaced_custom_object(
                keys.CAPI_IPAM_GROUP, keys.CAPI_IPAM_VERSION, namespace, "ipaddressclaims",
                label_selector=label_selector,
            )  # fmt: skip
            return [IPAddressClaim.from_k8s(item) for item in _items(raw)]

    def get_capi_address(self, namespace: str, name: str) -> CapiIPAddress:
        with translated(Verb.GET, f"IPAddress.{keys.CAPI_IPAM_GROUP} {namespace}/{name}"):
            raw = self._custom.get_namespaced_custom_object(
                keys.CAPI_IPAM_GROUP, keys.CAPI_IPAM_VERSION, namespace, "ipaddresses", name
            )
            return CapiIPAddress.from_k8s(_mapping(raw))

    # --- Secrets and Events ------------------------------------------------------------
    def get_secret(self, namespace: str, name: str) -> Secret:
        with translated(Verb.GET, f"Secret {namespace}/{name}"):
            raw = core.request(self.api_client, "GET", core.SECRET, _at(namespace, name))
            return Secret.from_k8s(_mapping(raw))

    def create_secret(self, secret: Secret) -> Secret:
        """Raises AlreadyExists (an outcome) when a Secret of that name is there already."""
        namespace = secret.metadata.namespace or "default"
        with translated(Verb.CREATE, f"Secret {namespace}/{secret.metadata.name}"):
            params = {"namespace": namespace}
            raw = core.request(self.api_client, "POST", core.SECRETS, params, _body(secret))
            return Secret.from_k8s(_mapping(raw))

    def update_secret(self, secret: Secret) -> Secret:
        """Replace, guarded by the resourceVersion the caller read (a conflict is Transient)."""
        namespace = secret.metadata.namespace or "default"
        with translated(Verb.UPDATE, f"Secret {namespace}/{secret.metadata.name}"):
            params = _at(namespace, secret.metadata.name)
            raw = core.request(self.api_client, "PUT", core.SECRET, params, _body(secret))
            return Secret.from_k8s(_mapping(raw))

    def create_event(self, namespace: str, body: Mapping[str, Any]) -> None:
        """A core/v1 Event; built by `kube.recorder`, which owns its shape."""
        with translated(Verb.CREATE, f"Event in {namespace}"):
            core.request(self.api_client, "POST", core.EVENTS, {"namespace": namespace}, body)


def _mapping(raw: object) -> Mapping[str, Any]:
    if not isinstance(raw, Mapping):
        raise Transient(f"unexpected API response of type {type(raw).__name__}")
    return raw


def _items(raw: object) -> list[Mapping[str, Any]]:
    items = _mapping(raw).get("items") or []
    return [_mapping(item) for item in items]


def _at(namespace: str, name: str) -> dict[str, str]:
    return {"namespace": namespace, "name": name}


def _body(secret: Secret) -> dict[str, Any]:
    return {"apiVersion": "v1", "kind": "Secret", **secret.to_k8s()}
