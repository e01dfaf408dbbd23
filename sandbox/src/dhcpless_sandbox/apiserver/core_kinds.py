"""The built-in kinds the sandbox serves, with their schemas and per-kind write rules.

Schemas live in `core_schemas.yaml` (our own, minimal). Per-kind rules copy what the real
registry strategies do and what clients can observe: Secrets turn `stringData` into base64
`data` and default `type: Opaque`; Namespaces get the `kubernetes` finalizer and phase Active;
IPAddresses keep their address, pool and claim (IPAM's webhook: `ipam_webhook`).
"""

from __future__ import annotations

import base64
import functools
from collections.abc import Callable
from importlib import resources
from typing import Any

import yaml

from dhcpless_sandbox.apiserver import ipam_webhook, printers
from dhcpless_sandbox.apiserver.kinds import PrinterColumn, ResourceType

JSON = dict[str, Any]
WriteRule = Callable[[JSON, JSON | None], None]
"""Adjusts an object about to be stored (new, old-or-None), in place."""


@functools.cache
def schemas() -> dict[str, JSON]:
    text = resources.files(__package__).joinpath("core_schemas.yaml").read_text()
    loaded: dict[str, JSON] = yaml.safe_load(text)
    return loaded


def root_schema(body: JSON) -> JSON:
    """A kind's schema with the fields every object has."""
    props = {
        "apiVersion": {"type": "string"},
        "kind": {"type": "string"},
        "metadata": {"type": "object", "x-kubernetes-preserve-unknown-fields": True},
        **body.get("properties", {}),
    }
    return {**body, "type": "object", "properties": props}


def _core(kind: str, plural: str, **kw: Any) -> ResourceType:
    schema_name = kw.pop("schema_name", kind)
    columns = kw.pop("own_columns", None) or (*kw.pop("columns", ()), AGE)
    return ResourceType(
        group=kw.pop("group", ""),
        version=kw.pop("version", "v1"),
        kind=kind,
        plural=plural,
        singular=kind.lower(),
        has_generation=False,
        schema=root_schema(schemas()[schema_name]),
        columns=columns,
        **kw,
    )


AGE = PrinterColumn("Age", "date", ".metadata.creationTimestamp")


def core_types() -> list[ResourceType]:
    phase = PrinterColumn("Status", "string", ".status.phase")
    # k8s.io/kubernetes pkg/registry/core/event/strategy.go (ToSelectableFields) and the field
    # label conversion of core/v1 Event: what `kubectl events --for` sends.
    event_fields = (
        *(
            f"involvedObject.{f}"
            for f in ("kind", "namespace", "name", "uid", "apiVersion", "resourceVersion")
        ),
        "involvedObject.fieldPath",
        "reason",
        "reportingComponent",
        "source",
        "type",
    )
    return [
        _core(
            "Namespace",
            "namespaces",
            namespaced=False,
            short_names=("ns",),
            status_subresource=True,
            columns=(phase,),
            selectable_fields=("status.phase",),
        ),
        _core(
            "Secret",
            "secrets",
            namespaced=True,
            selectable_fields=("type",),
            columns=printers.SECRET_COLUMNS,
        ),
        _core("ConfigMap", "configmaps", namespaced=True, short_names=("cm",)),
        _core("ServiceAccount", "serviceaccounts", namespaced=True, short_names=("sa",)),
        _core("Service", "services", namespaced=True, short_names=("svc",)),
        _core(
            "Event",
            "events",
            namespaced=True,
            short_names=("ev",),
            selectable_fields=event_fields,
            own_columns=printers.EVENT_COLUMNS,
            extra={printers.NO_NAME_COLUMN: True},
        ),
        _core(
            "Event",
            "events",
            group="events.k8s.io",
            namespaced=True,
            short_names=("ev",),
            schema_name="EventsV1Event",
        ),
    ]


def _secret(new: JSON, old: JSON | None) -> None:
    plain = new.pop("stringData", None) or {}
    data = dict(new.get("data") or {})
    data.update({k: base64.b64encode(str(v).encode()).decode() for k, v in plain.items()})
    if data or "data" in new:
        new["data"] = data
    new.setdefault("type", (old or {}).get("type", "Opaque"))


def _namespace(new: JSON, old: JSON | None) -> None:
    if old is None:
        new["spec"] = {"finalizers": ["kubernetes"]}
        new["status"] = {"phase": "Active"}
    labels = new["metadata"].setdefault("labels", {})
    labels["kubernetes.io/metadata.name"] = new["metadata"]["name"]


WRITE_RULES: dict[tuple[str, str], WriteRule] = {
    ("", "secrets"): _secret,
    ("", "namespaces"): _namespace,
    ipam_webhook.KEY: ipam_webhook.validate_update,  # IPAM's webhook, where its CRD is served
}
