"""Issue 24, finding 4: annotation injection.

The tenant may annotate hosts (`tenant.ANNOTATE_HOSTS`). Before, `released-at` plus
`claimed-pools` on any host made resync create one IPClaim per listed pool, in the namespace
the annotation named, with no owner there: pools drained across tenants, addresses held for
ever. Now the annotation on the host is only a hint of where to look: what a re-claim makes
comes from the record on the host's own Secret (our labels and its UID), in the host's own
namespace, owned by the host (`chain.predicates.ownership.trusted`).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from kubernetes import client as k8s

from dhcpless import keys
from dhcpless_sandbox.apiserver.server import SandboxServer
from tests.adversary import tenant
from tests.scenarios import steps
from tests.support import harness, objects, scenario

FULFIL = "ipclaim-fulfilment"
ELSEWHERE = "other-tenant"
RELEASED_AT = "2026-01-01T00:00:00Z"


@pytest.fixture
def world() -> Iterator[SandboxServer]:
    """host-0 released by us; `idle` a host we never served; a pool in another namespace and
    a second pool in ours."""
    with harness.running() as sandbox:
        with sandbox.api_client() as api:
            k8s.CoreV1Api(api).create_namespace(
                k8s.V1Namespace(metadata=k8s.V1ObjectMeta(name=ELSEWHERE))
            )
            theirs = objects.pool("theirs", "10.9.0.10", "10.9.0.20", 24, "10.9.0.1", [])
            theirs["metadata"]["namespace"] = ELSEWHERE
            scenario.create(api, theirs)
        spare = objects.pool("spare", "10.8.0.10", "10.8.0.20", 24, "10.8.0.1", [])
        for obj in (objects.POOL4, spare, objects.data_template(objects.IPV4)):
            harness.put(sandbox, obj)
        steps.register(sandbox, objects.host())
        assert steps.fire(sandbox, FULFIL, steps.fulfil(sandbox, "host-0-pool4")) == 204
        assert not steps.paused(sandbox, "host-0")
        harness.put(sandbox, objects.host("idle", pause=None, template=None))
        yield sandbox


def _claims(world: SandboxServer) -> list[tuple[str, str]]:
    with world.api_client() as api:
        listing = k8s.CustomObjectsApi(api).list_cluster_custom_object(
            keys.IPAM_GROUP, keys.IPAM_VERSION, "ipclaims"
        )
    assert isinstance(listing, dict)
    return sorted((c["metadata"]["namespace"], c["metadata"]["name"]) for c in listing["items"])


@pytest.mark.parametrize(
    ("host", "record"),
    [
        pytest.param("host-0", f"{ELSEWHERE}/theirs", id="released-host-other-namespace"),
        pytest.param(
            "host-0", f"{objects.NS}/pool4,{objects.NS}/spare", id="released-host-extra-pool"
        ),
        pytest.param("idle", f"{ELSEWHERE}/theirs", id="never-served-host-other-namespace"),
        pytest.param("idle", f"{objects.NS}/spare", id="never-served-host-own-namespace"),
    ],
)
def test_an_injected_record_creates_no_claim(world: SandboxServer, host: str, record: str) -> None:
    before = _claims(world)
    assert before == [(objects.NS, "host-0-pool4")]
    with tenant.acting(world, tenant.ANNOTATE_HOSTS) as attacker:
        attacker.annotate_host(host, {keys.RELEASED_AT_ANNOTATION: RELEASED_AT,
                                      keys.CLAIMED_POOLS_ANNOTATION: record})  # fmt: skip
    for _ in range(2):  # a re-claim would show on the first tick; the second sees it made
        assert steps.ping(world) == 204
    assert _claims(world) == before
