"""Extra steps for the least-privilege run (test_rbac_e2e): the functions as their pods run
them, with the watch cache (`kube.watchcache`), so the audit holds the LIST and WATCH each
one's cache makes and the Roles are held to exactly those.

* host-registration claims for a host found through a Metal3MachineTemplate: its cache lists
  and watches Metal3MachineTemplates and Metal3DataTemplates.
* ipclaim-fulfilment renders and releases it once IPAM answered: the IPPools and IPAddresses
  too.
* resync does both for a host no event reached (two ticks around IPAM's answer).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from cloudevents.core.bindings.http import to_binary_event
from cloudevents.core.v1.event import CloudEvent
from flask.testing import FlaskClient

from dhcpless import keys
from dhcpless.keys import EventType
from dhcpless.kube import Kube
from dhcpless.kube.cache.watchcache import WatchCache, kinds_for
from dhcpless_sandbox.apiserver.server import SandboxServer
from dhcpless_sandbox.controllers.custom_objects import CustomObjects
from functions.host_registration.app import create_app as registration_app
from functions.ipclaim_fulfilment.app import create_app as fulfilment_app
from functions.resync.app import create_app as resync_app
from functions.resync.settings import ResyncSettings
from tests.support import harness as e2e
from tests.support import objects, scenario

Obj = dict[str, object]


@contextmanager
def cached(sandbox: SandboxServer, function: str) -> Iterator[Kube]:
    """The adapter `from_environment` gives a pod: with its watch cache, as `function`."""
    with sandbox.api_client(token=e2e.IDENTITIES[function]) as api:
        cache = WatchCache(api, kinds=kinds_for(function))
        try:
            yield Kube(api, cache=cache)
        finally:
            cache.stop()


def _released(sandbox: SandboxServer, host: str) -> bool:
    with sandbox.api_client() as admin:
        stored = CustomObjects(admin, keys.BMO_GROUP, keys.BMO_VERSION).get(
            "baremetalhosts", objects.NS, host
        )
    annotations = (stored or {}).get("metadata", {}).get("annotations") or {}
    return bool(stored) and keys.PAUSED_ANNOTATION not in annotations


def by_events(sandbox: SandboxServer, labels: dict[str, str]) -> bool:
    """True when the two event-driven functions, with their caches, released a new host."""
    host = objects.host("cached-events", template=None, labels=labels)
    with sandbox.api_client() as admin:
        scenario.create(admin, host)
        stored = CustomObjects(admin, keys.BMO_GROUP, keys.BMO_VERSION).get(
            "baremetalhosts", objects.NS, "cached-events"
        )
    with cached(sandbox, "host-registration") as kube:
        app = registration_app(kube).test_client()
        assert e2e.deliver(app, EventType.RESOURCE_ADD, stored or {}) == (204, "")
    with sandbox.api_client() as admin:
        scenario.Ipam(admin).fulfil_all()
        ipam = CustomObjects(admin, keys.IPAM_GROUP, keys.IPAM_VERSION)
        claims = [c for c in ipam.list_items("ipclaims", objects.NS) if _of(c, "cached-events")]
    with cached(sandbox, "ipclaim-fulfilment") as kube:
        app = fulfilment_app(kube).test_client()
        for claim in claims:
            assert e2e.deliver(app, EventType.RESOURCE_UPDATE, claim) == (204, "")
    return bool(claims) and _released(sandbox, "cached-events")


def by_resync(sandbox: SandboxServer, labels: dict[str, str]) -> bool:
    """True when resync, with its cache, released a host no event reached."""
    with sandbox.api_client() as admin:
        scenario.create(admin, objects.host("cached-resync", template=None, labels=labels))
    with cached(sandbox, "resync") as kube:
        app = resync_app(kube, resync=ResyncSettings(namespace=objects.NS)).test_client()
        for _ in range(2):  # claim; render and release once IPAM answered
            assert ping(app) == 204
            with sandbox.api_client() as admin:
                scenario.Ipam(admin).fulfil_all()
    return _released(sandbox, "cached-resync")


def _of(claim: dict[str, object], host: str) -> bool:
    meta = claim.get("metadata")
    return isinstance(meta, dict) and str(meta.get("name", "")).startswith(f"{host}-")


def ping(app: FlaskClient) -> int:
    """One PingSource tick, as the resync Trigger delivers it, to a resync app."""
    event = CloudEvent(
        attributes={
            "type": "dev.knative.sources.ping",
            "source": f"/apis/v1/namespaces/{objects.NS}/pingsources/dhcpless-resync",
            "datacontenttype": "application/json",
        },
        data={"reason": "periodic resync"},
    )
    message = to_binary_event(event)
    status: int = app.post("/", headers=message.headers, data=message.body).status_code
    return status
