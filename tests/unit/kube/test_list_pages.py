"""A paged LIST (`GenericKube.list_pages`) returns what one LIST does, a page a request, and
an IPPool event's search for failed claims pages through the fleet's claims (issue 28)."""

from __future__ import annotations

import pytest
from kubernetes import client as k8s

from dhcpless import keys
from dhcpless.chain.gather import ipam
from dhcpless.kube import Kube
from dhcpless.kube.api import resources as r
from dhcpless_sandbox.apiserver.server import SandboxServer
from tests.support import objects
from tests.unit.kube.cache_support import NS, create

CLAIMS = 5
OURS = f"{keys.MANAGED_BY_LABEL}={keys.MANAGED_BY_VALUE}"


def _lists(world: SandboxServer) -> int:
    return sum(
        1 for rec in world.audit.records if rec.verb == "list" and rec.resource == "ipclaims"
    )


@pytest.mark.parametrize(
    ("page", "requests"),
    [pytest.param(2, 3, id="three-pages"), pytest.param(500, 1, id="one-page")],
)
def test_pages_add_up_to_one_list(world: SandboxServer, page: int, requests: int) -> None:
    for i in range(CLAIMS):
        create(world, objects.claim(f"host-{i}-pool4", "pool4", f"uid-{i}", f"host-{i}"))
    kube = Kube(world.api_client())
    before = _lists(world)
    pages = list(kube.list_pages(r.IPCLAIMS, NS, OURS, page=page))
    assert _lists(world) - before == requests
    assert all(len(p) <= page for p in pages)
    names = [c.metadata.name for p in pages for c in p]
    assert names == sorted(c.metadata.name for c in kube.list_claims(NS, OURS))
    assert len(names) == CLAIMS


def test_failed_claims_are_found_on_every_page(world: SandboxServer) -> None:
    api = k8s.CustomObjectsApi(world.api_client())
    for i in range(CLAIMS):
        create(world, objects.claim(f"host-{i}-pool4", "pool4", f"uid-{i}", f"host-{i}"))
    for i in (0, CLAIMS - 1):  # on the first page and on the last
        status = {"status": {"errorMessage": "Exhausted IP Pools"}}
        api.patch_namespaced_custom_object_status(
            keys.IPAM_GROUP, keys.IPAM_VERSION, NS, "ipclaims", f"host-{i}-pool4", status
        )
    kube = Kube(world.api_client())
    kube.claim_pages = lambda ns, sel: kube.list_pages(r.IPCLAIMS, ns, sel, page=2)  # type: ignore[method-assign, assignment]
    assert ipam.failed_in_pool(kube, NS, "pool4") == [(NS, "host-0"), (NS, f"host-{CLAIMS - 1}")]
