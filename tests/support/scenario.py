"""Drive the chain against a sandbox API server with no event plumbing.

`run_chain` creates the objects, then loops: it looks at what changed in the API (hosts,
IPClaims, Secrets), turns every change into the CloudEvent the ApiServerSource would send, and
posts it to the function whose Trigger would match (BareMetalHost -> host-registration,
IPClaim -> ipclaim-fulfilment in Resource mode, Secret -> secret-readiness in Reference mode).
Between rounds it plays the IPAM controller: each new claim gets the lowest free address of its
pool (an IPAddress, then `status.address` through the status subresource), sequentially.

Delivery can be made hostile: duplicated, reversed within a round, and replayed in full
(stale snapshots included) once the chain has settled. A 503 is redelivered, as Knative would.

`identities` maps a function name to a bearer token, so the sandbox audit attributes each API
call to the function that made it (least-privilege RBAC is derived from that audit).
"""

from __future__ import annotations

import importlib
import ipaddress
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from cloudevents.core.bindings.http import to_binary_event, to_structured_event
from cloudevents.core.v1.event import CloudEvent
from flask.testing import FlaskClient
from kubernetes import client as k8s

from dhcpless import keys, registry
from dhcpless.keys import EventType, FunctionName
from dhcpless.kube import Kube
from dhcpless.models import BareMetalHost, Secret

Obj = dict[str, Any]
MAX_ROUNDS = 40
MAX_RETRIES = 5


class Sandbox(Protocol):
    """What the driver needs from the sandbox API server."""

    def api_client(self, token: str | None = None) -> k8s.ApiClient: ...


@dataclass(frozen=True)
class Delivery:
    """How hostile the delivery is."""

    duplicate: bool = False
    reverse: bool = False
    replay: bool = False
    structured: bool = False


@dataclass
class ChainResult:
    hosts: dict[str, BareMetalHost]
    secrets: dict[str, Secret]
    statuses: Counter[int] = field(default_factory=Counter)
    invocations: Counter[str] = field(default_factory=Counter)


# kind -> (group, version, plural); "" group is the core API
RESOURCES: Mapping[str, tuple[str, str, str]] = {
    "BareMetalHost": (keys.BMO_GROUP, keys.BMO_VERSION, "baremetalhosts"),
    "IPPool": (keys.IPAM_GROUP, keys.IPAM_VERSION, "ippools"),
    "IPClaim": (keys.IPAM_GROUP, keys.IPAM_VERSION, "ipclaims"),
    "IPAddress": (keys.IPAM_GROUP, keys.IPAM_VERSION, "ipaddresses"),
    "Metal3DataTemplate": (keys.CAPM3_GROUP, keys.CAPM3_VERSION, "metal3datatemplates"),
    "Metal3MachineTemplate": (keys.CAPM3_GROUP, keys.CAPM3_VERSION, "metal3machinetemplates"),
    "Metal3Data": (keys.CAPM3_GROUP, keys.CAPM3_VERSION, "metal3datas"),
    "Metal3PreprovisioningDataTemplate": (
        keys.CAPM3_GROUP,
        keys.CAPM3_VERSION,
        "metal3preprovisioningdatatemplates",
    ),
}
TARGET = {
    "BareMetalHost": FunctionName.HOST_REGISTRATION,
    "IPClaim": FunctionName.IPCLAIM_FULFILMENT,
    "Secret": FunctionName.SECRET_READINESS,
}


def create(api: k8s.ApiClient, obj: Mapping[str, Any]) -> None:
    """Create any object the scenarios use, as an admin would (`kubectl create`)."""
    namespace = obj["metadata"].get("namespace", "default")
    if obj["kind"] == "Secret":
        body = k8s.V1Secret.from_dict(dict(obj))
        assert body is not None
        k8s.CoreV1Api(api).create_namespaced_secret(namespace, body)
        return
    group, version, plural = RESOURCES[obj["kind"]]
    k8s.CustomObjectsApi(api).create_namespaced_custom_object(
        group, version, namespace, plural, dict(obj)
    )


def apps(sandbox: Sandbox, identities: Mapping[str, str] | None) -> dict[str, FlaskClient]:
    """One Flask test client per function, each with its own identity."""
    clients = {}
    for name in TARGET.values():
        module = importlib.import_module(registry.function(name.value).module)
        kube = Kube(sandbox.api_client(token=(identities or {}).get(name.value)))
        clients[name.value] = module.create_app(kube).test_client()
    return clients


def snapshot(api: k8s.ApiClient) -> dict[tuple[str, str, str], Obj]:
    """Every watched object, keyed by (kind, namespace, name), as the API returns it."""
    custom = k8s.CustomObjectsApi(api)
    found: dict[tuple[str, str, str], Obj] = {}
    for kind in ("BareMetalHost", "IPClaim"):
        group, version, plural = RESOURCES[kind]
        listing = custom.list_cluster_custom_object(group, version, plural)
        assert isinstance(listing, dict)
        for item in listing["items"]:
            found[(kind, item["metadata"]["namespace"], item["metadata"]["name"])] = item
    secrets = k8s.CoreV1Api(api).list_secret_for_all_namespaces()
    for secret in secrets.items:
        raw = api.sanitize_for_serialization(secret)  # type: ignore[no-untyped-call]
        raw |= {"apiVersion": "v1", "kind": "Secret"}
        found[("Secret", raw["metadata"]["namespace"], raw["metadata"]["name"])] = raw
    return found


def changes(
    before: Mapping[tuple[str, str, str], Obj], after: Mapping[tuple[str, str, str], Obj]
) -> Iterator[tuple[EventType, Obj]]:
    """What an ApiServerSource in Resource mode would emit between two snapshots."""
    for key, obj in after.items():
        old = before.get(key)
        if old is None:
            yield EventType.RESOURCE_ADD, obj
        elif old["metadata"].get("resourceVersion") != obj["metadata"].get("resourceVersion"):
            yield EventType.RESOURCE_UPDATE, obj
    for key, obj in before.items():
        if key not in after:
            yield EventType.RESOURCE_DELETE, obj


def cloudevent(event_type: EventType, obj: Obj) -> CloudEvent:
    """The event as the adapter builds it (knative.md §b); Secrets go in Reference mode."""
    meta = obj["metadata"]
    ref = {"kind": obj["kind"], "namespace": meta["namespace"], "name": meta["name"]}
    ref["apiVersion"] = obj["apiVersion"]
    data: Obj = obj
    if obj["kind"] == "Secret":
        event_type = EventType(event_type.value.replace(".resource.", ".ref."))
        data = ref
    group_version = obj["apiVersion"]
    attributes = {
        "type": event_type.value,
        "source": "https://10.96.0.1:443",
        "subject": f"/apis/{group_version}/namespaces/{meta['namespace']}/x/{meta['name']}",
        "datacontenttype": "application/json",
        "kind": obj["kind"],
        "apiversion": obj["apiVersion"],
        "name": meta["name"],
        "namespace": meta["namespace"],
    }
    return CloudEvent(attributes=attributes, data=data)


def post(client: FlaskClient, event: CloudEvent, structured: bool) -> int:
    message = to_structured_event(event) if structured else to_binary_event(event)
    response = client.post("/", headers=message.headers, data=message.body)
    assert response.status_code != 204 or response.get_data() == b""
    return response.status_code


class Ipam:
    """The IPAM controller, played sequentially: lowest free address of the pool first."""

    def __init__(self, api: k8s.ApiClient) -> None:
        self.custom = k8s.CustomObjectsApi(api)

    def fulfil_all(self) -> None:
        group, version, plural = RESOURCES["IPClaim"]
        listing = self.custom.list_cluster_custom_object(group, version, plural)
        assert isinstance(listing, dict)
        for claim in listing["items"]:
            if not (claim.get("status") or {}).get("address"):
                self.fulfil(claim)

    def fulfil(self, claim: Obj) -> None:
        """Give one claim the lowest free address of its pool, or the one it asks for
        (`keys.REQUESTED_IP_ANNOTATION`), or an error."""
        namespace, name = claim["metadata"]["namespace"], claim["metadata"]["name"]
        pool = self._get("IPPool", namespace, claim["spec"]["pool"]["name"])
        status: Obj
        requested = (claim["metadata"].get("annotations") or {}).get(keys.REQUESTED_IP_ANNOTATION)
        address = self._free(pool, namespace, requested)
        if address is None and requested:  # ip-address-manager `allocateAddress`: that or none
            status = {"errorMessage": "Requested IP not available"}
        elif address is None:
            status = {"errorMessage": "Failed to allocate address: Exhausted IP Pools"}
        else:
            status = {
                "address": {"name": self._address(pool, claim, address), "namespace": namespace}
            }
        group, version, plural = RESOURCES["IPClaim"]
        self.custom.patch_namespaced_custom_object_status(
            group, version, namespace, plural, name, {"status": status}
        )

    def _get(self, kind: str, namespace: str, name: str) -> Obj:
        group, version, plural = RESOURCES[kind]
        raw = self.custom.get_namespaced_custom_object(group, version, namespace, plural, name)
        assert isinstance(raw, dict)
        return raw

    def _free(self, pool: Obj, namespace: str, requested: str | None = None) -> str | None:
        """The lowest free address of the pool, or only `requested` when a claim asks for it."""
        group, version, plural = RESOURCES["IPAddress"]
        listing = self.custom.list_namespaced_custom_object(group, version, namespace, plural)
        assert isinstance(listing, dict)
        used = {a["spec"]["address"] for a in listing["items"]}
        entry = pool["spec"]["pools"][0]
        start, end = ipaddress.ip_address(entry["start"]), ipaddress.ip_address(entry["end"])
        candidates = (str(start + offset) for offset in range(int(end) - int(start) + 1))
        wanted = (a for a in candidates if not requested or a == requested)
        return next((a for a in wanted if a not in used), None)

    def _address(self, pool: Obj, claim: Obj, address: str) -> str:
        spec = pool["spec"]
        name = f"{pool['metadata']['name']}-{address.replace('.', '-').replace(':', '-')}"
        body = {
            "apiVersion": f"{keys.IPAM_GROUP}/{keys.IPAM_VERSION}",
            "kind": "IPAddress",
            "metadata": {
                "name": name,
                "namespace": claim["metadata"]["namespace"],
                "labels": claim["metadata"].get("labels") or {},  # as IPAM does
            },
            "spec": {
                "address": address,
                "prefix": spec["prefix"],
                "gateway": spec["gateway"],
                "dnsServers": spec.get("dnsServers", []),
                "pool": {"name": pool["metadata"]["name"]},
                "claim": {"name": claim["metadata"]["name"]},
            },
        }
        create(self.custom.api_client, body)
        return name


def run_chain(
    sandbox: Sandbox,
    objects: Sequence[Mapping[str, Any]],
    identities: Mapping[str, str] | None = None,
    delivery: Delivery | None = None,
) -> ChainResult:
    """Create `objects`, then drive events until nothing changes; return the final state."""
    delivery = delivery or Delivery()
    admin = sandbox.api_client()
    clients = apps(sandbox, identities)
    for obj in objects:
        create(admin, obj)
    result = ChainResult({}, {})
    seen: list[CloudEvent] = []
    before: dict[tuple[str, str, str], Obj] = {}
    for _ in range(MAX_ROUNDS):
        after = snapshot(admin)
        pending = [cloudevent(t, o) for t, o in changes(before, after) if o["kind"] in TARGET]
        if not pending:
            break
        before = after
        _deliver_round(clients, pending, delivery, result)
        seen.extend(pending)
        Ipam(admin).fulfil_all()
    else:
        raise AssertionError(f"chain did not settle in {MAX_ROUNDS} rounds")
    if delivery.replay:
        _deliver_round(clients, list(reversed(seen)), delivery, result)
    return _final(admin, result)


def _deliver_round(
    clients: Mapping[str, FlaskClient],
    events: list[CloudEvent],
    delivery: Delivery,
    result: ChainResult,
) -> None:
    ordered = list(reversed(events)) if delivery.reverse else events
    for event in ordered:
        for _ in range(2 if delivery.duplicate else 1):
            _deliver(clients, event, delivery.structured, result)


def _deliver(
    clients: Mapping[str, FlaskClient], event: CloudEvent, structured: bool, result: ChainResult
) -> None:
    target = TARGET[event.get_extension("kind")].value
    for _ in range(MAX_RETRIES):
        status = post(clients[target], event, structured)
        result.statuses[status] += 1
        result.invocations[target] += 1
        if status != 503:
            return


def _final(admin: k8s.ApiClient, result: ChainResult) -> ChainResult:
    state = snapshot(admin)
    result.hosts = {
        name: BareMetalHost.from_k8s(obj)
        for (kind, _, name), obj in state.items()
        if kind == "BareMetalHost"
    }
    result.secrets = {
        name: Secret.from_k8s(obj)
        for (kind, _, name), obj in state.items()
        if kind == "Secret" and keys.HOST_LABEL in obj["metadata"].get("labels", {})
    }
    return result
