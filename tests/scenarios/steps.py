"""Small steps the identity scenarios share: put objects as a user would, run one function on
one object's event, read what the chain decided (the host's pause, its Events, its Secret)."""

from __future__ import annotations

import copy
from typing import Any

from cloudevents.core.bindings.http import to_binary_event
from cloudevents.core.v1.event import CloudEvent
from kubernetes import client as k8s

from dhcpless import keys
from dhcpless.keys import EventType
from dhcpless_sandbox.apiserver.server import SandboxServer
from dhcpless_sandbox.runtime.wiring import PING_TYPE
from tests.support import harness, objects, scenario

Obj = dict[str, Any]


def fire(sandbox: SandboxServer, function: str, obj: Obj, kind: EventType | None = None) -> int:
    """Deliver the event the source would send for `obj` to `function`; the HTTP status."""
    event_type = kind or EventType.RESOURCE_UPDATE
    return harness.deliver(harness.client(sandbox, function), event_type, obj)[0]


def ping(sandbox: SandboxServer) -> int:
    """One PingSource tick to resync; the HTTP status."""
    attributes = {"type": PING_TYPE, "source": "/apis/v1/namespaces/metal3/pingsources/resync"}
    message = to_binary_event(CloudEvent(attributes=attributes, data=None))
    app = harness.client(sandbox, "resync")
    return app.post("/", headers=message.headers, data=message.body).status_code


def fresh(sandbox: SandboxServer, kind: str, name: str) -> Obj:
    found = harness.get(sandbox, kind, name)
    assert found is not None, f"{kind} {name} not found"
    return found


def register(sandbox: SandboxServer, host: Obj) -> Obj:
    """Create the host and deliver its add event to host-registration; the stored host."""
    stored = harness.put(sandbox, host)
    assert fire(sandbox, "host-registration", stored, EventType.RESOURCE_ADD) == 204
    return stored


def fulfil(sandbox: SandboxServer, claim_name: str) -> Obj:
    """IPAM answers one claim; the claim as stored afterwards."""
    with sandbox.api_client() as api:
        scenario.Ipam(api).fulfil(fresh(sandbox, "IPClaim", claim_name))
    return fresh(sandbox, "IPClaim", claim_name)


def paused(sandbox: SandboxServer, name: str) -> bool:
    host = fresh(sandbox, "BareMetalHost", name)
    return keys.PAUSED_ANNOTATION in (host["metadata"].get("annotations") or {})


def warnings(sandbox: SandboxServer, name: str) -> list[tuple[str, str]]:
    with sandbox.api_client() as api:
        found = harness.host_events(api, name)
    return [(reason, message) for kind, reason, message in found if kind == "Warning"]


def custom(sandbox: SandboxServer) -> tuple[k8s.ApiClient, k8s.CustomObjectsApi]:
    api = sandbox.api_client()
    return api, k8s.CustomObjectsApi(api)


def delete(sandbox: SandboxServer, kind: str, name: str) -> None:
    """Delete as a user would (a finalizer keeps the object, terminating)."""
    group, version, plural = scenario.RESOURCES[kind]
    api, api_custom = custom(sandbox)
    with api:
        api_custom.delete_namespaced_custom_object(group, version, objects.NS, plural, name)


def drop_finalizers(sandbox: SandboxServer, kind: str, name: str) -> None:
    """What IPAM does last for a deleted claim: the object goes."""
    group, version, plural = scenario.RESOURCES[kind]
    api, api_custom = custom(sandbox)
    with api:
        api_custom.patch_namespaced_custom_object(
            group, version, objects.NS, plural, name, {"metadata": {"finalizers": None}}
        )


labels_of = objects.labels_of
claim = objects.claim


def template_with_dns(name: str, dns: str) -> Obj:
    """The IPv4 template with its DNS servers given literally (tells two renderings apart)."""
    network = copy.deepcopy(objects.IPV4)
    network["services"] = {"dns": [dns]}
    return objects.data_template(network, name)
