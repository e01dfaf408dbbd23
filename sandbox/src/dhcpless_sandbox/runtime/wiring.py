"""The embedded world's eventing wiring, mirroring `eventing/` in the repository.

Exists apart from `World` so the wiring is data that tests can compare with the manifests: the
Broker's name, the ApiServerSources (BareMetalHosts and IPPools in Resource mode; our IPClaims in
Resource mode and our Secrets in Reference mode, both selected by our managed-by label; our CAPI
IPAddressClaims in Resource mode, for external IPAM; CAPM3's Metal3Data in Resource mode, to
lend our claims to it at once), one
Trigger filter per function with the shared delivery spec, the PingSource's event, and how a
function's app is built on each cold start.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import urllib3
from cloudevents.core.v1.event import CloudEvent
from kubernetes import client

from dhcpless import keys
from dhcpless.keys import FunctionName
from dhcpless.kube import Kube, WatchCache, cached_kinds, one_write
from dhcpless_sandbox.controllers.reflector import WatchedResource as Watched
from dhcpless_sandbox.eventing.eventsource import SourceResource
from dhcpless_sandbox.eventing.source_events import Mode
from functions.apps import create_app
from functions.resync.settings import ResyncSettings

BROKER = "dhcpless"
PING_TYPE = "dev.knative.sources.ping"
PING_SOURCE = "/apis/v1/namespaces/default/pingsources/dhcpless-resync"
OURS = f"{keys.MANAGED_BY_LABEL}={keys.MANAGED_BY_VALUE}"
NOT_DONE = f"!{keys.DONE_LABEL}"
"""Hosts whose pre-provisioning is not finished (eventing/source-baremetalhosts.yaml)."""
NOT_WRITTEN_BY_US = f"{OURS},!{keys.WRITER_RELEASES_LABEL}"
"""Our Secrets but those whose writer releases the host (eventing/source-secrets.yaml)."""
CAPI_IPAM = f"{keys.CAPI_IPAM_GROUP}/v1beta2"
"""As eventing/components/capi-ipam watches: CAPI's storage version (v1beta1 is deprecated)."""
CAPM3 = f"{keys.CAPM3_GROUP}/{keys.CAPM3_VERSION}"

DELIVERY: dict[str, Any] = {"retry": 5, "backoffPolicy": "exponential", "backoffDelay": "PT0.5S"}
"""Every Trigger's delivery (eventing/triggers.yaml), dead-lettered to `dead-letter`."""


def _changes(kind: str, prefix: str) -> list[dict[str, Any]]:
    types = [{"exact": {"type": f"{prefix}.{op}"}} for op in ("add", "update")]
    return [{"any": types}, {"exact": {"kind": kind}}]


def _host_changes() -> list[dict[str, Any]]:
    """BareMetalHosts and CAPM3's Metal3Data (lend our claims to it: `chain.decide.lifecycle`)."""
    ops = ("add", "update")
    types = [{"exact": {"type": f"dev.knative.apiserver.resource.{op}"}} for op in ops]
    kinds = [{"exact": {"kind": kind}} for kind in ("BareMetalHost", "Metal3Data")]
    return [{"any": types}, {"any": kinds}]


def _claims_and_pools() -> list[dict[str, Any]]:
    """Our IPClaims (deleted ones too: claim again), IPPools (retry failed claims) and our CAPI
    IPAddressClaims (external IPAM)."""
    ops = ("add", "update", "delete")
    types = [{"exact": {"type": f"dev.knative.apiserver.resource.{op}"}} for op in ops]
    kinds = [{"exact": {"kind": kind}} for kind in ("IPClaim", "IPPool", "IPAddressClaim")]
    return [{"any": types}, {"any": kinds}]


TRIGGER_FILTERS: dict[FunctionName, list[dict[str, Any]]] = {
    FunctionName.HOST_REGISTRATION: _host_changes(),
    FunctionName.IPCLAIM_FULFILMENT: _claims_and_pools(),
    FunctionName.SECRET_READINESS: _changes("Secret", "dev.knative.apiserver.ref"),
    FunctionName.RESYNC: [
        {"exact": {"type": PING_TYPE}},
        {"suffix": {"source": "/pingsources/dhcpless-resync"}},
    ],
}
"""The `spec.filters` of each Trigger, as in eventing/triggers.yaml."""

SOURCES = [
    SourceResource(
        Watched("metal3.io/v1alpha1", "BareMetalHost", "baremetalhosts", NOT_DONE), Mode.RESOURCE
    ),
    SourceResource(Watched("ipam.metal3.io/v1alpha1", "IPClaim", "ipclaims", OURS), Mode.RESOURCE),
    SourceResource(Watched("ipam.metal3.io/v1alpha1", "IPPool", "ippools"), Mode.RESOURCE),
    SourceResource(Watched("v1", "Secret", "secrets", NOT_WRITTEN_BY_US), Mode.REFERENCE),
    SourceResource(Watched(CAPI_IPAM, "IPAddressClaim", "ipaddressclaims", OURS), Mode.RESOURCE),
    SourceResource(Watched(CAPM3, "Metal3Data", "metal3datas"), Mode.RESOURCE),
]


def ping_event() -> CloudEvent:
    """One PingSource event (the periodic resync), with a fresh id."""
    attributes = {
        "type": PING_TYPE,
        "source": PING_SOURCE,
        "id": str(uuid.uuid4()),
        "datacontenttype": "application/json",
    }
    return CloudEvent(attributes=attributes, data={"reason": "periodic resync"})


def one_write_connections(workers: int) -> urllib3.PoolManager:
    """The world's Broker client: an event's head and body in one write, as Go's net/http
    (Knative's dispatcher) writes a request through one buffered writer
    (`persistConn.writeLoop`), by the product's `kube.one_write`."""
    return one_write(urllib3.PoolManager(maxsize=workers, retries=False))


KUBE_CACHE = True
"""Build the functions' adapters with the watch cache a pod has (`kube.watchcache`), as
deployed (on by default); `pytest --kube-cache off` runs the worlds with every read a request.
One cache per function for the world's life."""


def function_factory(
    name: FunctionName,
    api: Callable[[], client.ApiClient],
    namespace: str = "default",
    namespace_selector: str = "",
    caches: list[Any] | None = None,
) -> Callable[[], Any]:
    """Each cold start builds the app anew with its own client, like a fresh pod; resync is
    told the namespace whose hosts it lists (in a pod: its own, see functions/resync). With
    `KUBE_CACHE`, the adapter has a watch cache, kept in `caches` for the world to stop."""
    kept: list[WatchCache] = []

    def adapter() -> Kube:
        made = api()
        if KUBE_CACHE and not kept:
            kept.append(WatchCache(made, kinds=cached_kinds(name.value)))
            if caches is not None:
                caches.append(kept[0])
        return Kube(made, cache=kept[0] if kept else None)

    settings = None
    if name is FunctionName.RESYNC:
        settings = ResyncSettings(namespace=namespace, namespace_selector=namespace_selector)
    return lambda: create_app(name.value, adapter(), settings)
