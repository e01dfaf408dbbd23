"""Extra steps for the least-privilege run (test_rbac_e2e): the paths of issue 6 that the
chain scenario does not reach by itself, each driven as the function's own identity.

* IP lifecycle: CAPM3 associates a released host with a Metal3Machine whose Metal3Data
  exists: host-registration lists our claims and the Metal3Data and lends the claim to it.
* Self-healing: an IPPool event makes ipclaim-fulfilment delete our failed claim of that pool;
  the claim's delete event makes it claim again for the waiting host.
* External IPAM: a template network drawing from an InClusterIPPool; host-registration creates
  the CAPI IPAddressClaim, ipclaim-fulfilment lists it, reads the CAPI IPAddress (and the
  IPPools, for DNS) and renders; resync does the same for a host no event announced.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable
from typing import Any

import yaml
from kubernetes import client as k8s

from dhcpless import keys
from dhcpless.keys import EventType, ProvisioningState
from dhcpless.kube import Kube
from dhcpless_sandbox.apiserver.server import SandboxServer
from dhcpless_sandbox.controllers.custom_objects import CustomObjects
from dhcpless_sandbox.standins.bmh_status import host_status
from functions.host_registration.app import create_app as registration_app
from functions.ipclaim_fulfilment.app import create_app as fulfilment_app
from tests.support import harness as e2e
from tests.support import objects, scenario
from tests.support.scenario import Ipam


def lifecycle(sandbox: SandboxServer, host: str, pool: str) -> int:
    """CAPM3 associates released `host` with a Metal3Machine whose Metal3Data exists; post the
    host's update event: host-registration lends the claim of `pool` to that Metal3Data."""
    stored = associate(sandbox, host)
    token = e2e.IDENTITIES["host-registration"]
    with sandbox.api_client(token=token) as api:
        app = registration_app(Kube(api)).test_client()
        code, _ = e2e.deliver(app, EventType.RESOURCE_UPDATE, stored)
    assert owner_kinds(sandbox, host, pool) == ["BareMetalHost", "Metal3Data"]
    return code


def associate(sandbox: SandboxServer, host: str) -> dict[str, Any]:
    """As CAPM3 does: `spec.consumerRef` to a Metal3Machine, and that machine's Metal3Data."""
    sandbox.apply_crd(copy.deepcopy(_metal3data_crd()))
    with sandbox.api_client() as admin:
        consumer = {
            "apiVersion": f"{keys.CAPM3_GROUP}/{keys.CAPM3_VERSION}",
            "kind": "Metal3Machine",
            "name": f"{host}-m3m",
            "namespace": objects.NS,
        }
        hosts = CustomObjects(admin, keys.BMO_GROUP, keys.BMO_VERSION)
        k8s.CustomObjectsApi(admin).patch_namespaced_custom_object(
            keys.BMO_GROUP,
            keys.BMO_VERSION,
            objects.NS,
            "baremetalhosts",
            host,
            {"spec": {"consumerRef": consumer}},
        )
        available = host_status(ProvisioningState.AVAILABLE)
        hosts.patch_status("baremetalhosts", objects.NS, host, available)
        scenario.create(
            admin,
            {
                "apiVersion": f"{keys.CAPM3_GROUP}/{keys.CAPM3_VERSION}",
                "kind": "Metal3Data",
                "metadata": {"name": f"{host}-data", "namespace": objects.NS},
                "spec": {"claim": {"name": f"{host}-m3m"}, "template": {"name": "tmpl"}},
            },
        )
        return hosts.get("baremetalhosts", objects.NS, host) or {}


def owner_kinds(sandbox: SandboxServer, host: str, pool: str) -> list[str]:
    with sandbox.api_client() as admin:
        ipam = CustomObjects(admin, keys.IPAM_GROUP, keys.IPAM_VERSION)
        claim = ipam.get("ipclaims", objects.NS, f"{host}-{pool}") or {"metadata": {}}
    return [o["kind"] for o in claim["metadata"].get("ownerReferences") or []]


@functools.cache
def _metal3data_crd() -> dict[str, Any]:
    text = (e2e.CRDS / "infrastructure.cluster.x-k8s.io_metal3datas.yaml").read_text()
    found: dict[str, Any] = yaml.safe_load(text)
    return found


def heal(sandbox: SandboxServer, host: str, pool: str) -> str:
    """Fail `host`'s claim of `pool`, post the pool's event, then the claim's delete event.
    Returns the UID of the claim made again (never the failed one's)."""
    name = f"{host}-{pool}"
    with sandbox.api_client() as admin:
        ipam = CustomObjects(admin, keys.IPAM_GROUP, keys.IPAM_VERSION)
        if ipam.get("ipclaims", objects.NS, name) is None:
            _post_host(sandbox, host)
        Ipam(admin).fulfil_all()
        failed = ipam.get("ipclaims", objects.NS, name) or {}
        assert failed["status"]["errorMessage"]
        pool_obj = ipam.get("ippools", objects.NS, pool) or {}
    with sandbox.api_client(token=e2e.IDENTITIES["ipclaim-fulfilment"]) as api:
        app = fulfilment_app(Kube(api)).test_client()
        assert e2e.deliver(app, EventType.RESOURCE_UPDATE, pool_obj) == (204, "")
        assert e2e.deliver(app, EventType.RESOURCE_DELETE, failed) == (204, "")
    with sandbox.api_client() as admin:
        again = CustomObjects(admin, keys.IPAM_GROUP, keys.IPAM_VERSION).get(
            "ipclaims", objects.NS, name
        )
    assert again is not None
    assert again["metadata"]["uid"] != failed["metadata"]["uid"]
    return str(again["metadata"]["uid"])


def _post_host(sandbox: SandboxServer, host: str) -> None:
    with sandbox.api_client(token=e2e.IDENTITIES["host-registration"]) as api:
        app = registration_app(Kube(api)).test_client()
        with sandbox.api_client() as admin:
            stored = CustomObjects(admin, keys.BMO_GROUP, keys.BMO_VERSION).get(
                "baremetalhosts", objects.NS, host
            )
        assert e2e.deliver(app, EventType.RESOURCE_UPDATE, stored or {}) == (204, "")


CAPI_GROUP = keys.CAPI_IPAM_GROUP


def external_world() -> list[dict[str, object]]:
    """An InClusterIPPool with two addresses, a template drawing from it, one waiting host."""
    pool = {
        "apiVersion": f"{CAPI_GROUP}/v1alpha2",
        "kind": "InClusterIPPool",
        "metadata": {"name": "ext", "namespace": objects.NS},
        "spec": {"addresses": ["10.9.0.10-10.9.0.11"], "prefix": 24, "gateway": "10.9.0.1"},
    }
    ref = {"name": "ext", "kind": "InClusterIPPool", "apiGroup": CAPI_GROUP}
    network = {"id": "ext4", "link": "eth0", "fromPoolRef": ref, "routes": []}
    data = {"links": {"ethernets": [objects.IPV4["links"]["ethernets"][0]]},
            "networks": {"ipv4": [network]}}  # fmt: skip
    template = objects.data_template(data, "tmpl-ext")
    reference = "metal3datatemplates.infrastructure.cluster.x-k8s.io/tmpl-ext"
    return [pool, template, objects.host("ext-1", template=reference)]


def external(sandbox: SandboxServer) -> str:
    """External IPAM through the functions: host-registration claims from the CAPI pool, the
    stand-in serves the claim, ipclaim-fulfilment renders; returns the Secret's name."""
    from dhcpless_sandbox.standins.capi_ipam import CapiIPAMController, load_crds

    load_crds(sandbox)
    with sandbox.api_client() as admin:
        pool, *rest = external_world()
        k8s.CustomObjectsApi(admin).create_namespaced_custom_object(
            CAPI_GROUP, "v1alpha2", objects.NS, "inclusterippools", pool
        )
        for obj in rest:
            scenario.create(admin, obj)
    _post_host(sandbox, "ext-1")
    with sandbox.api_client() as admin:
        CapiIPAMController(admin).reconcile((objects.NS, "ext"))
        claim = CustomObjects(admin, CAPI_GROUP, keys.CAPI_IPAM_VERSION).get(
            "ipaddressclaims", objects.NS, "ext-1-ext"
        )
    assert claim is not None and claim["status"]["addressRef"]["name"] == "ext-1-ext"
    with sandbox.api_client(token=e2e.IDENTITIES["ipclaim-fulfilment"]) as api:
        app = fulfilment_app(Kube(api)).test_client()
        assert e2e.deliver(app, EventType.RESOURCE_UPDATE, claim) == (204, "")
    secret = e2e.get(sandbox, "Secret", "ext-1" + keys.SECRET_NAME_SUFFIX)
    assert secret is not None
    return str(secret["metadata"]["name"])


def external_resync(sandbox: SandboxServer, ping: Callable[[], int]) -> None:
    """A host of the CAPI pool created while no source runs: resync claims, then renders."""
    reference = "metal3datatemplates.infrastructure.cluster.x-k8s.io/tmpl-ext"
    from dhcpless_sandbox.standins.capi_ipam import CapiIPAMController

    with sandbox.api_client() as admin:
        scenario.create(admin, objects.host("ext-2", template=reference))
        assert ping() == 204
        CapiIPAMController(admin).reconcile((objects.NS, "ext"))
        assert ping() == 204
    assert e2e.get(sandbox, "Secret", "ext-2" + keys.SECRET_NAME_SUFFIX) is not None
