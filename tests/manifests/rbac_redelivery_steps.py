"""Extra steps for the least-privilege run (test_rbac_e2e): the paths of issue 12 the chain
scenario does not reach by itself, each driven as the function's own identity.

* A redelivered event of a waiting host: host-registration's create finds the claim there and
  GETs it to see whose it is (`chain.identity`); ipclaim-fulfilment's re-drive does the same.
* A released host CAPM3 associated while no event reached us: resync lends its claim to the
  Metal3Data (`chain.lifecycle`).
* A waiting host whose pool names a Cluster that does not exist: resync reads the pool and
  looks for the Cluster, then says why the claim is unanswered (`chain.stalls`).
"""

from __future__ import annotations

import copy
from collections.abc import Callable

from dhcpless import keys
from dhcpless.keys import EventType
from dhcpless.kube import Kube
from dhcpless.sandbox.apiserver.server import SandboxServer
from dhcpless.sandbox.custom_objects import CustomObjects
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
