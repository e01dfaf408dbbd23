"""Two parity gaps with CAPM3 HEAD (issue 14, finding 11), each through the real path.

* A Metal3 IPAM IPAddress with prefix 0 (omitted from the object: the field is a Go int with
  omitempty) renders netmask `0.0.0.0`, as CAPM3's `newAddressFromIPAMv1` + `translateMask`
  do, not the "" of an unknown prefix.
* A CAPI (non-Metal3) pool gets no DNS servers, even when a Metal3 IPPool of the same name
  has some (`fetchDNSServersFromIPPool` returns nil unless the pool is a Metal3 IPPool).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from kubernetes import client as k8s

from dhcpless import keys, render
from dhcpless.chain.gather import ipam
from dhcpless.kube import Kube
from dhcpless.models import BareMetalHost, IPAddress
from dhcpless.models.netdata import Networks
from dhcpless.render.openstack import render_networks
from dhcpless_sandbox.apiserver.server import SandboxServer
from dhcpless_sandbox.standins.capi_ipam import CapiIPAMController, load_crds
from tests.manifests.rbac_lifecycle_steps import CAPI_GROUP, external_world
from tests.support import harness, objects


@pytest.mark.parametrize(
    ("spec", "netmask"),
    [
        pytest.param({"address": "10.0.0.5"}, "0.0.0.0", id="prefix-0-omitted"),
        pytest.param({"address": "10.0.0.5", "prefix": 0}, "0.0.0.0", id="prefix-0-written"),
        pytest.param({"address": "10.0.0.5", "prefix": 24}, "255.255.255.0", id="prefix-24"),
    ],
)
def test_a_zero_prefix_renders_the_zero_netmask(spec: dict[str, object], netmask: str) -> None:
    ip = IPAddress.from_k8s({"metadata": {"name": "a", "namespace": "n"}, "spec": spec})
    data = {"ipv4": [{"id": "a", "link": "l", "ipAddressFromIPPool": "p"}]}
    networks = Networks.model_validate(data)
    (rendered,) = render_networks(
        networks, {"p": render.Address.from_ipaddress(ip)}, BareMetalHost.from_k8s(objects.host())
    )
    assert rendered["netmask"] == netmask


@pytest.fixture
def fulfilled() -> Iterator[SandboxServer]:
    """A host on a CAPI pool `ext` whose claim is fulfilled, and a Metal3 IPPool also named
    `ext` with DNS servers (what used to leak into the rendering)."""
    with harness.running() as running:
        load_crds(running)
        pool, *rest = external_world()
        with running.api_client() as admin:
            k8s.CustomObjectsApi(admin).create_namespaced_custom_object(
                CAPI_GROUP, "v1alpha2", objects.NS, "inclusterippools", pool
            )
        harness.put(
            running, objects.pool("ext", "10.1.0.10", "10.1.0.20", 24, "10.1.0.1", ["1.1.1.1"])
        )
        stored = [harness.put(running, obj) for obj in rest]
        registration = harness.client(running, "host-registration")
        assert harness.deliver(registration, keys.EventType.RESOURCE_ADD, stored[-1]) == (204, "")
        with running.api_client() as admin:
            CapiIPAMController(admin).reconcile((objects.NS, "ext"))
        yield running


def test_a_capi_pool_gets_no_dns_from_a_same_named_metal3_pool(fulfilled: SandboxServer) -> None:
    kube = Kube(fulfilled.api_client())
    host = kube.get_host(objects.NS, "ext-1")
    ref = render.PoolRef("ext", kind="InClusterIPPool", api_group=CAPI_GROUP)
    claims = ipam.capi_claims(kube, host, objects.NS, (ref,))
    assert list(claims.claims) == ["ext"]
    found = ipam.capi_addresses(kube, claims, objects.NS)
    assert found.addresses["ext"].dns_servers == ()
    assert found.addresses["ext"].address.startswith("10.9.0.")
