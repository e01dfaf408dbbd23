"""Sandbox set-up and inspection helpers for the chain's function and end-to-end tests."""

from __future__ import annotations

import copy
import functools
import importlib
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import yaml
from cloudevents.core.bindings.http import to_binary_event, to_structured_event
from cloudevents.core.v1.event import CloudEvent
from flask import Flask
from flask.testing import FlaskClient
from kubernetes import client as k8s

from dhcpless import registry
from dhcpless.keys import EventType
from dhcpless.kube import Kube
from dhcpless.kube.events import recorder
from dhcpless_sandbox.apiserver.server import SandboxServer
from functions.resync.settings import ResyncSettings
from tests.support import objects, scenario, upstream

CRDS = upstream.METAL3_CRDS
UPSTREAM = (
    "metal3.io_baremetalhosts.yaml",
    "ipam.metal3.io_ippools.yaml",
    "ipam.metal3.io_ipclaims.yaml",
    "ipam.metal3.io_ipaddresses.yaml",
    "infrastructure.cluster.x-k8s.io_metal3datatemplates.yaml",
    "infrastructure.cluster.x-k8s.io_metal3machinetemplates.yaml",
)
WRITES = frozenset({"create", "update", "patch", "delete", "deletecollection"})
FUNCTIONS = ("host-registration", "ipclaim-fulfilment", "secret-readiness", "resync")


def prepare(sandbox: SandboxServer) -> None:
    """Upstream Metal3 CRDs (validated against their real schemas), ours, the test namespace,
    and one bearer token per function so the audit names who did what."""
    for crd in upstream_crds():
        sandbox.apply_crd(copy.deepcopy(crd))
    sandbox.load_builtin_crds()
    with sandbox.api_client() as api:
        k8s.CoreV1Api(api).create_namespace(
            k8s.V1Namespace(metadata=k8s.V1ObjectMeta(name=objects.NS))
        )
    for function in FUNCTIONS:
        sandbox.add_token(token(function), function)


@functools.cache
def upstream_crds() -> tuple[dict[str, Any], ...]:
    """Parsed once per test process: the upstream YAML is large and slow to parse."""
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    paths = [upstream.required(CRDS / name) for name in UPSTREAM]
    docs = [d for path in paths for d in yaml.load_all(path.read_text(), loader)]
    return tuple(d for d in docs if d)


def token(function: str) -> str:
    return f"{function}-token"


IDENTITIES = {function: token(function) for function in FUNCTIONS}


@contextmanager
def running() -> Iterator[SandboxServer]:
    """A started, prepared sandbox with a fresh audit (bound to port 0)."""
    with SandboxServer() as sandbox:
        prepare(sandbox)
        sandbox.reset_audit()
        yield sandbox


def writes(sandbox: SandboxServer, identity: str | None = None) -> list[Any]:
    """Write requests in the audit, optionally only those of one identity."""
    return [
        r
        for r in sandbox.audit.records
        if r.verb in WRITES and (identity is None or r.identity == identity)
    ]


def host_events(api: k8s.ApiClient, name: str) -> list[tuple[str, str, str]]:
    """(type, reason, message) of the core/v1 Events on one host, in name order (after the
    queued ones this process's functions decided were posted: `kube.posting`)."""
    recorder.flush()
    listing = k8s.CoreV1Api(api).list_namespaced_event(objects.NS)
    found = [e for e in listing.items if e.involved_object.name == name]
    return [(e.type or "", e.reason or "", e.message or "") for e in found]


def client(sandbox: SandboxServer, function: str) -> FlaskClient:
    """The function's Flask test client, calling the sandbox as that function."""
    module = importlib.import_module(registry.function(function).module)
    kube = Kube(sandbox.api_client(token=token(function)))
    extra = {"resync": ResyncSettings(namespace=objects.NS)} if function == "resync" else {}
    app: Flask = module.create_app(kube, **extra)
    return app.test_client()


def put(sandbox: SandboxServer, obj: dict[str, Any]) -> dict[str, Any]:
    """Create as admin; return the object as stored (uid, resourceVersion, defaults)."""
    with sandbox.api_client() as api:
        scenario.create(api, obj)
        return get(sandbox, obj["kind"], obj["metadata"]["name"]) or {}


def get(sandbox: SandboxServer, kind: str, name: str) -> dict[str, Any] | None:
    """One object of the test namespace as the API returns it, or None."""
    with sandbox.api_client() as api:
        found: dict[str, Any] | None = scenario.snapshot(api).get((kind, objects.NS, name))
        if found is None and kind in scenario.RESOURCES:
            return _get_custom(api, kind, name)
        return found


def _get_custom(api: k8s.ApiClient, kind: str, name: str) -> dict[str, Any] | None:
    group, version, plural = scenario.RESOURCES[kind]
    custom = k8s.CustomObjectsApi(api)
    try:
        raw = custom.get_namespaced_custom_object(group, version, objects.NS, plural, name)
    except k8s.exceptions.NotFoundException:
        return None
    assert isinstance(raw, dict)
    return raw


def deliver(
    flask_client: FlaskClient,
    event_type: EventType,
    obj: dict[str, Any],
    structured: bool = False,
) -> tuple[int, str]:
    """Post the event the ApiServerSource would send for `obj`; (status, body text)."""
    event = scenario.cloudevent(event_type, obj)
    message = to_structured_event(event) if structured else to_binary_event(event)
    response = flask_client.post("/", headers=message.headers, data=message.body)
    return response.status_code, response.get_data(as_text=True)


def audit_of(sandbox: SandboxServer, function: str) -> list[Any]:
    """Every request (reads too) one function made."""
    return [r for r in sandbox.audit.records if r.identity == function]


PAUSE_PATH = "/metadata/annotations/" + "baremetalhost.metal3.io~1paused"


def patch_host(api: k8s.ApiClient, name: str, patch: list[dict[str, Any]]) -> None:
    """Change a host as a user (admin) would, with a JSON patch."""
    group, version, plural = scenario.RESOURCES["BareMetalHost"]
    k8s.CustomObjectsApi(api).patch_namespaced_custom_object(
        group, version, objects.NS, plural, name, patch, _content_type="application/json-patch+json"
    )


def deliver_raw(
    flask_client: FlaskClient, event_type: str, obj: dict[str, Any], reference: bool = False
) -> tuple[int, str]:
    """Like `deliver`, but with any type string, and the object or its reference as data."""
    meta = obj["metadata"]
    ref = {"kind": obj["kind"], "namespace": meta["namespace"], "name": meta["name"]}
    data = {**ref, "apiVersion": obj["apiVersion"]} if reference else obj
    attributes = {
        "type": event_type,
        "source": "https://10.96.0.1:443",
        "datacontenttype": "application/json",
        "kind": obj["kind"],
        "apiversion": obj["apiVersion"],
        "name": meta["name"],
        "namespace": meta["namespace"],
    }
    message = to_binary_event(CloudEvent(attributes=attributes, data=data))
    response = flask_client.post("/", headers=message.headers, data=message.body)
    return response.status_code, response.get_data(as_text=True)
