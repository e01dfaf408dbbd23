"""Extra steps for the least-privilege run (test_rbac_e2e): the paths of issue 12 the chain
scenario does not reach by itself, each driven as the function's own identity.

* A redelivered event of a waiting host: its claims are listed, nothing is created again.
* Names someone else took (an IPClaim, an IPAddressClaim, a Secret) under waiting hosts'
  names: each function's create finds the object and GETs it (`chain.act.Found`); resync's
  too, which then reads the host again; each is reported as a conflict (`chain.identity`).
* A released host CAPM3 associated while no event reached us: resync lends its claim to the
  Metal3Data (`chain.decide.lifecycle`).
* A waiting host whose pool names a Cluster that does not exist: resync reads the pool and
  looks for the Cluster, then says why the claim is unanswered (`chain.decide.stalls`).
"""

from __future__ import annotations

import copy
from collections.abc import Callable

from dhcpless import keys
from dhcpless.keys import EventType
from dhcpless.kube import Kube
from dhcpless_sandbox.apiserver.server import SandboxServer
from dhcpless_sandbox.controllers.custom_objects import CustomObjects
from functions.host_registration.app import create_app as registration_app
from functions.ipclaim_fulfilment.app import create_app as fulfilment_app
from tests.manifests import rbac_lifecycle_steps
from tests.support import harness as e2e
from tests.support import objects, scenario


def redelivered(sandbox: SandboxServer, host: str, pool: str) -> bool:
    """True when both functions left the waiting host's claim as it was (it is its own)."""
    with sandbox.api_client() as admin:
        stored = CustomObjects(admin, keys.BMO_GROUP, keys.BMO_VERSION).get(
            "baremetalhosts", objects.NS, host
        )
        ipam = CustomObjects(admin, keys.IPAM_GROUP, keys.IPAM_VERSION)
        claim = ipam.get("ipclaims", objects.NS, f"{host}-{pool}") or {}
    with sandbox.api_client(token=e2e.IDENTITIES["host-registration"]) as api:
        app = registration_app(Kube(api)).test_client()
        assert e2e.deliver(app, EventType.RESOURCE_UPDATE, stored or {}) == (204, "")
    with sandbox.api_client(token=e2e.IDENTITIES["ipclaim-fulfilment"]) as api:
        app = fulfilment_app(Kube(api)).test_client()
        assert e2e.deliver(app, EventType.RESOURCE_DELETE, claim) == (204, "")
    with sandbox.api_client() as admin:
        ipam = CustomObjects(admin, keys.IPAM_GROUP, keys.IPAM_VERSION)
        after = ipam.get("ipclaims", objects.NS, f"{host}-{pool}") or {}
    return bool(claim) and after.get("metadata", {}).get("uid") == claim["metadata"]["uid"]


def lent_by_resync(sandbox: SandboxServer, host: str, pool: str, ping: Callable[[], int]) -> bool:
    """True when a resync tick lent the claim CAPM3's Metal3Data waits for."""
    rbac_lifecycle_steps.associate(sandbox, host)
    assert ping() == 204
    return rbac_lifecycle_steps.owner_kinds(sandbox, host, pool) == ["BareMetalHost", "Metal3Data"]


def gated(sandbox: SandboxServer, ping: Callable[[], int]) -> bool:
    """True when resync left the host paused with a Warning naming the missing Cluster."""
    pool = objects.pool("gated", "10.9.0.10", "10.9.0.20", 24, "10.9.0.1", ["8.8.8.8"])
    pool["spec"]["clusterName"] = "c9"
    network = copy.deepcopy(objects.IPV4)
    network["networks"]["ipv4"][0] |= {"ipAddressFromIPPool": "gated"}
    network["networks"]["ipv4"][0]["routes"][0]["gateway"] = {"fromIPPool": "gated"}
    network["services"] = {"dns": ["9.9.9.9"]}
    template = f"metal3datatemplates.{keys.CAPM3_GROUP}/t-gated"
    with sandbox.api_client() as admin:
        for obj in (
            pool,
            objects.data_template(network, "t-gated"),
            objects.host("gated-0", template=template),
        ):
            scenario.create(admin, obj)
    assert ping() == 204  # claims
    assert ping() == 204  # still unanswered: why
    with sandbox.api_client() as admin:
        events = e2e.host_events(admin, "gated-0")
    return any(reason == "ClaimUnanswered" and "c9" in message for _, reason, message in events)


def external_twice(sandbox: SandboxServer, ping: Callable[[], int]) -> bool:
    """A waiting host on an external pool, its event delivered twice, then a resync tick:
    each create after the first finds the IPAddressClaim and GETs it (it is the host's own)."""
    reference = "metal3datatemplates.infrastructure.cluster.x-k8s.io/tmpl-ext"
    with sandbox.api_client() as admin:
        scenario.create(admin, objects.host("ext-9", template=reference))
        stored = CustomObjects(admin, keys.BMO_GROUP, keys.BMO_VERSION).get(
            "baremetalhosts", objects.NS, "ext-9"
        )
    with sandbox.api_client(token=e2e.IDENTITIES["host-registration"]) as api:
        app = registration_app(Kube(api)).test_client()
        for _ in range(2):
            assert e2e.deliver(app, EventType.RESOURCE_UPDATE, stored or {}) == (204, "")
    assert ping() == 204
    with sandbox.api_client() as admin:
        events = e2e.host_events(admin, "ext-9")
    return not any(reason == "ClaimConflict" for _, reason, _ in events)


def _foreign(kind: str, name: str) -> dict[str, object]:
    """An object under a name of ours, made by someone else (no labels, no owner)."""
    meta = {"name": name, "namespace": objects.NS}
    if kind == "Secret":
        data = {keys.NETWORK_DATA_KEY: "e30="}
        return {"apiVersion": "v1", "kind": "Secret", "metadata": meta, "data": data}
    if kind == "IPAddressClaim":
        pool = {
            "apiGroup": rbac_lifecycle_steps.CAPI_GROUP,
            "kind": "InClusterIPPool",
            "name": "ext",
        }
        version = f"{keys.CAPI_IPAM_GROUP}/{keys.CAPI_IPAM_VERSION}"
        return {"apiVersion": version, "kind": kind, "metadata": meta, "spec": {"poolRef": pool}}
    return {
        "apiVersion": f"{keys.IPAM_GROUP}/{keys.IPAM_VERSION}",
        "kind": "IPClaim",
        "metadata": meta,
        "spec": {"pool": {"name": "pool4"}},
    }


def names_taken(sandbox: SandboxServer) -> bool:
    """Someone else's IPClaim and Secret under the names of waiting hosts: each function's
    create finds the object and GETs it (`act.Found`), and the decision reports a conflict.
    True when both hosts stay paused with a ClaimConflict and a SecretConflict."""
    with sandbox.api_client() as admin:
        scenario.create(admin, _foreign("IPClaim", "clash-0-pool4"))
        scenario.create(admin, objects.host("clash-0"))
        scenario.create(admin, _foreign("Secret", "clash-1" + keys.SECRET_NAME_SUFFIX))
        scenario.create(admin, objects.host("clash-1"))
        hosts = CustomObjects(admin, keys.BMO_GROUP, keys.BMO_VERSION)
        stored = [hosts.get("baremetalhosts", objects.NS, h) or {} for h in ("clash-0", "clash-1")]
    with sandbox.api_client(token=e2e.IDENTITIES["host-registration"]) as api:
        app = registration_app(Kube(api)).test_client()
        for host in stored:
            assert e2e.deliver(app, EventType.RESOURCE_UPDATE, host) == (204, "")
    with sandbox.api_client() as admin:
        scenario.Ipam(admin).fulfil_all()
        claim = CustomObjects(admin, keys.IPAM_GROUP, keys.IPAM_VERSION).get(
            "ipclaims", objects.NS, "clash-1-pool4"
        )
        ours = {**(claim or {}), "metadata": {**(claim or {})["metadata"], "name": "clash-0-pool4"}}
    with sandbox.api_client(token=e2e.IDENTITIES["ipclaim-fulfilment"]) as api:
        app = fulfilment_app(Kube(api)).test_client()
        assert e2e.deliver(app, EventType.RESOURCE_UPDATE, claim or {}) == (204, "")
        ours["metadata"]["labels"] = {**ours["metadata"]["labels"], keys.HOST_LABEL: "clash-0"}
        assert e2e.deliver(app, EventType.RESOURCE_DELETE, ours) == (204, "")
    with sandbox.api_client() as admin:
        found = [{r for _, r, _ in e2e.host_events(admin, h)} for h in ("clash-0", "clash-1")]
    return "ClaimConflict" in found[0] and "SecretConflict" in found[1]


def capi_names(sandbox: SandboxServer) -> bool:
    """External IPAM: someone else's IPAddressClaim under a waiting host's name (host-registration
    GETs it), and our claim of a waiting host deleted (ipclaim-fulfilment claims again).
    True when the first host has a ClaimConflict and the second its claim back."""
    reference = "metal3datatemplates.infrastructure.cluster.x-k8s.io/tmpl-ext"
    with sandbox.api_client() as admin:
        capi = CustomObjects(admin, keys.CAPI_IPAM_GROUP, keys.CAPI_IPAM_VERSION)
        foreign = _foreign("IPAddressClaim", "clashx-0-ext")
        capi.create("ipaddressclaims", objects.NS, foreign)
        scenario.create(admin, objects.host("clashx-0", template=reference))
        stored = CustomObjects(admin, keys.BMO_GROUP, keys.BMO_VERSION).get(
            "baremetalhosts", objects.NS, "clashx-0"
        )
        gone = capi.get("ipaddressclaims", objects.NS, "ext-9-ext") or {}
        capi.delete("ipaddressclaims", objects.NS, "ext-9-ext")
        taken = {**foreign, "metadata": {"name": "ext-9-ext", "namespace": objects.NS}}
        capi.create("ipaddressclaims", objects.NS, taken)  # someone else's, at once
    with sandbox.api_client(token=e2e.IDENTITIES["host-registration"]) as api:
        app = registration_app(Kube(api)).test_client()
        assert e2e.deliver(app, EventType.RESOURCE_UPDATE, stored or {}) == (204, "")
    with sandbox.api_client(token=e2e.IDENTITIES["ipclaim-fulfilment"]) as api:
        app = fulfilment_app(Kube(api)).test_client()
        assert e2e.deliver(app, EventType.RESOURCE_DELETE, gone) == (204, "")
    with sandbox.api_client() as admin:
        found = [{r for _, r, _ in e2e.host_events(admin, h)} for h in ("clashx-0", "ext-9")]
    return bool(gone) and all("ClaimConflict" in reasons for reasons in found)


def resync_finds_names(sandbox: SandboxServer, ping: Callable[[], int]) -> bool:
    """A tick over waiting hosts whose names someone else took (an IPClaim, an IPAddressClaim;
    `names_taken` left a Secret): resync's creates find them, GET them, read the host again
    and report each. True when each host has its conflict."""
    reference = "metal3datatemplates.infrastructure.cluster.x-k8s.io/tmpl-ext"
    with sandbox.api_client() as admin:
        scenario.create(admin, _foreign("IPClaim", "clash-2-pool4"))
        scenario.create(admin, objects.host("clash-2"))
        capi = CustomObjects(admin, keys.CAPI_IPAM_GROUP, keys.CAPI_IPAM_VERSION)
        foreign = _foreign("IPAddressClaim", "clashx-1-ext")
        capi.create("ipaddressclaims", objects.NS, foreign)
        scenario.create(admin, objects.host("clashx-1", template=reference))
    assert ping() == 204
    with sandbox.api_client() as admin:
        found = {h: {r for _, r, _ in e2e.host_events(admin, h)} for h in ("clash-2", "clashx-1")}
    return all("ClaimConflict" in reasons for reasons in found.values())
