"""What `dhcpless status` reads: a handful of LISTs, one namespace or all, typed at the edge.

Hosts, our IPClaims (by our managed-by label), IPAddresses, the names of our Secrets (their
data is never looked at), the Events our functions recorded and the Metal3MachineTemplates
(which template a host matches). Fleet-wide LISTs are fine
here: a person runs this command once, it is not a function on the event path.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from kubernetes import client as k8s
from kubernetes.client.exceptions import ApiException

from dhcpless import keys
from dhcpless.kube import Verb, translated
from dhcpless.kube.api.client import Kube
from dhcpless.models import BareMetalHost, IPAddress, IPClaim, Metal3MachineTemplate

OURS = f"{keys.MANAGED_BY_LABEL}={keys.MANAGED_BY_VALUE}"


@dataclass(frozen=True, slots=True)
class HostEvent:
    """The parts of a core/v1 Event on a host that `status` shows."""

    namespace: str
    host: str
    reason: str
    message: str
    when: str
    count: int = 1
    order: int = 0
    """The Event's resourceVersion as a number (0 if it is not one): storage order, to tell
    apart Events written within the same second."""


@dataclass(frozen=True)
class Fleet:
    hosts: list[BareMetalHost]
    claims: list[IPClaim]
    addresses: list[IPAddress]
    secrets: frozenset[tuple[str, str]]
    events: list[HostEvent]
    machine_templates: list[Metal3MachineTemplate]


def read_fleet(kube: Kube, namespace: str | None) -> Fleet:
    """Everything `status` needs, in six LISTs."""
    custom, core = k8s.CustomObjectsApi(kube.api_client), k8s.CoreV1Api(kube.api_client)
    where = namespace or "all namespaces"
    with translated(Verb.LIST, f"status objects in {where}"):
        claims = _custom(custom, namespace, keys.IPAM_GROUP, "ipclaims", OURS)
        addresses = _custom(custom, namespace, keys.IPAM_GROUP, "ipaddresses", "")
        secrets = _secret_names(core, namespace)
        events = (
            core.list_namespaced_event(namespace)
            if namespace
            else core.list_event_for_all_namespaces()
        )
        m3mts = _custom(custom, namespace, keys.CAPM3_GROUP, "metal3machinetemplates", "")
        return Fleet(
            machine_templates=[Metal3MachineTemplate.from_k8s(item) for item in m3mts],
            hosts=kube.list_hosts(namespace),
            claims=[IPClaim.from_k8s(item) for item in claims],
            addresses=[IPAddress.from_k8s(item) for item in addresses],
            secrets=secrets,
            events=[e for item in events.items if (e := _host_event(item)) is not None],
        )


def _custom(
    custom: k8s.CustomObjectsApi, namespace: str | None, group: str, plural: str, selector: str
) -> list[Mapping[str, Any]]:
    version = keys.CAPM3_VERSION if group == keys.CAPM3_GROUP else keys.IPAM_VERSION
    if namespace:
        raw = custom.list_namespaced_custom_object(
            group, version, namespace, plural, label_selector=selector
        )
    else:
        raw = custom.list_cluster_custom_object(group, version, plural, label_selector=selector)
    items: list[Mapping[str, Any]] = raw.get("items") or [] if isinstance(raw, dict) else []
    return items


def _secret_names(core: k8s.CoreV1Api, namespace: str | None) -> frozenset[tuple[str, str]]:
    """Our Secrets' names; none when the caller may not list Secrets (a user who may read
    hosts and Events but not Secrets still gets the table, as kubectl shows what it may)."""
    try:
        found = (
            core.list_namespaced_secret(namespace, label_selector=OURS)
            if namespace
            else core.list_secret_for_all_namespaces(label_selector=OURS)
        )
    except ApiException as err:
        if err.status in (401, 403):
            return frozenset()
        raise
    return frozenset(_where(s.metadata) for s in found.items)


def _where(meta: k8s.V1ObjectMeta | None) -> tuple[str, str]:
    """(namespace, name) of a listed Secret: its metadata only, never its data."""
    if meta is None:
        return ("", "")
    return (meta.namespace or "default", meta.name or "")


def _host_event(event: k8s.CoreV1Event) -> HostEvent | None:
    """Only Events our functions recorded on a BareMetalHost."""
    involved = event.involved_object
    component = event.reporting_component or (event.source.component if event.source else "")
    if involved.kind != "BareMetalHost" or component != keys.EVENT_REPORTING_COMPONENT:
        return None
    when = event.last_timestamp or event.event_time or event.first_timestamp
    return HostEvent(
        namespace=involved.namespace or event.metadata.namespace or "default",
        host=involved.name or "",
        reason=event.reason or "",
        message=event.message or "",
        when=when.isoformat() if when is not None else "",
        count=event.count or 1,
        order=_number(event.metadata.resource_version if event.metadata else None),
    )


def _number(version: str | None) -> int:
    return int(version) if version and version.isdigit() else 0
