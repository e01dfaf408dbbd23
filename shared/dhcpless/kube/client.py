"""The one thin typed adapter over the official `kubernetes` client.

Only the calls the functions make, each returning a model from `dhcpless.models` and each
wrapped in `translated(...)`, so callers see our error families (`kube.errors`) and never a
client exception or a raw dict. Tests run it against the sandbox API server: no fakes of the
client itself.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from kubernetes import client as k8s
from kubernetes import config as k8s_config

from dhcpless import keys
from dhcpless.errors import InvalidInput, Transient
from dhcpless.kube.errors import Verb, translated
from dhcpless.models import (
    BareMetalHost,
    IPAddress,
    IPClaim,
    IPPool,
    Metal3MachineTemplate,
    NetworkTemplate,
    Secret,
    network_template_from_k8s,
)
from dhcpless.models.base import K8sObject
from dhcpless.resolve import TemplateRef

M = TypeVar("M", bound=K8sObject)
JSON_PATCH = "application/json-patch+json"
MERGE_PATCH = "application/merge-patch+json"
JsonPatch = Sequence[Mapping[str, Any]]


def from_environment() -> Kube:
    """KUBECONFIG (or ~/.kube/config) when present, otherwise the in-cluster service account."""
    try:
        k8s_config.load_kube_config()  # type: ignore[no-untyped-call]
    except (k8s_config.ConfigException, OSError):
        k8s_config.load_incluster_config()  # type: ignore[no-untyped-call]
    return Kube(k8s.ApiClient())


class Kube:
    """Typed calls on BareMetalHosts, templates, IPAM objects, Secrets and Events."""

    def __init__(self, api_client: k8s.ApiClient) -> None:
        self.api_client = api_client
        self._custom = k8s.CustomObjectsApi(api_client)
        self._core = k8s.CoreV1Api(api_client)

    # --- BareMetalHost -----------------------------------------------------------------
    def get_host(self, namespace: str, name: str) -> BareMetalHost:
        with translated(Verb.GET, f"BareMetalHost {namespace}/{name}"):
            raw = self._custom.get_namespaced_custom_object(
                keys.BMO_GROUP, keys.BMO_VERSION, namespace, "baremetalhosts", name
            )
            return BareMetalHost.from_k8s(_mapping(raw))

    def list_hosts(self, namespace: str | None = None) -> list[BareMetalHost]:
        """One namespace, or all of them (only `resync` lists fleet-wide, once per ping)."""
        with translated(Verb.LIST, f"BareMetalHosts in {namespace or 'all namespaces'}"):
            if namespace is None:
                raw = self._custom.list_cluster_custom_object(
                    keys.BMO_GROUP, keys.BMO_VERSION, "baremetalhosts"
                )
            else:
                raw = self._custom.list_namespaced_custom_object(
                    keys.BMO_GROUP, keys.BMO_VERSION, namespace, "baremetalhosts"
                )
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

    def patch_pool(self, namespace: str, name: str, patch: Mapping[str, Any]) -> IPPool:
        """Merge patch; a `metadata.resourceVersion` in it makes it conditional (409 Transient)."""
        with translated(Verb.PATCH, f"IPPool {namespace}/{name}"):
            raw = self._custom.patch_namespaced_custom_object(
                keys.IPAM_GROUP, keys.IPAM_VERSION, namespace, "ippools", name, dict(patch),
                _content_type=MERGE_PATCH,
            )  # fmt: skip
            return IPPool.from_k8s(_mapping(raw))

    def get_claim(self, namespace: str, name: str) -> IPClaim:
        return self._get_ipam(IPClaim, "ipclaims", namespace, name)

    def get_address(self, namespace: str, name: str) -> IPAddress:
        return self._get_ipam(IPAddress, "ipaddresses", namespace, name)

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
        with translated(Verb.LIST, f"IPClaims in {namespace}"):
            raw = self._custom.list_namespaced_custom_object(
                keys.IPAM_GROUP, keys.IPAM_VERSION, namespace, "ipclaims",
                label_selector=label_selector,
            )  # fmt: skip
            return [IPClaim.from_k8s(item) for item in _items(raw)]

    def _get_ipam(self, model: type[M], plural: str, namespace: str, name: str) -> M:
        with translated(Verb.GET, f"{plural} {namespace}/{name}"):
            raw = self._custom.get_namespaced_custom_object(
                keys.IPAM_GROUP, keys.IPAM_VERSION, namespace, plural, name
            )
            return model.from_k8s(_mapping(raw))

    # --- Secrets and Events ------------------------------------------------------------
    def get_secret(self, namespace: str, name: str) -> Secret:
        with translated(Verb.GET, f"Secret {namespace}/{name}"):
            raw = self._core.read_namespaced_secret(name, namespace)
            return Secret.from_k8s(self._plain(raw))

    def create_secret(self, secret: Secret) -> Secret:
        """Raises AlreadyExists (an outcome) when a Secret of that name is there already."""
        namespace = secret.metadata.namespace or "default"
        with translated(Verb.CREATE, f"Secret {namespace}/{secret.metadata.name}"):
            raw = self._core.create_namespaced_secret(namespace, _v1_secret(secret))
            return Secret.from_k8s(self._plain(raw))

    def update_secret(self, secret: Secret) -> Secret:
        """Replace, guarded by the resourceVersion the caller read (a conflict is Transient)."""
        namespace = secret.metadata.namespace or "default"
        with translated(Verb.UPDATE, f"Secret {namespace}/{secret.metadata.name}"):
            raw = self._core.replace_namespaced_secret(
                secret.metadata.name, namespace, _v1_secret(secret)
            )
            return Secret.from_k8s(self._plain(raw))

    def create_event(self, namespace: str, body: Mapping[str, Any]) -> None:
        """A core/v1 Event; built by `kube.recorder`, which owns its shape."""
        with translated(Verb.CREATE, f"Event in {namespace}"):
            self._core.create_namespaced_event(namespace, _event(body))

    def _plain(self, model: object) -> Mapping[str, Any]:
        """A client model as the plain camelCase dict the API sent."""
        return _mapping(self.api_client.sanitize_for_serialization(model))  # type: ignore[no-untyped-call]


def _mapping(raw: object) -> Mapping[str, Any]:
    if not isinstance(raw, Mapping):
        raise Transient(f"unexpected API response of type {type(raw).__name__}")
    return raw


def _items(raw: object) -> list[Mapping[str, Any]]:
    items = _mapping(raw).get("items") or []
    return [_mapping(item) for item in items]


def _v1_secret(secret: Secret) -> k8s.V1Secret:
    body = k8s.V1Secret.from_dict(secret.to_k8s())
    if body is None:  # from_dict returns None only for None input
        raise InvalidInput("empty Secret")
    return body


def _event(body: Mapping[str, Any]) -> k8s.CoreV1Event:
    event = k8s.CoreV1Event.from_dict(dict(body))
    if event is None:  # from_dict returns None only for None input
        raise InvalidInput("empty Event")
    return event
