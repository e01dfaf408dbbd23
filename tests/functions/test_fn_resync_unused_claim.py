"""resync releases a waiting host's claim of a pool its template no longer uses (issue 24,
finding 8), a real PingSource CloudEvent posted, sandbox API behind it.

A host waits on its claim of `pool4` (IPAM has not answered); it is relabelled to a template
of `pool6`. The next tick claims from `pool6` and deletes the `pool4` claim with a
`ClaimReleased` Event, so that address is free again (the host never used it). A claim event
alone deletes nothing (an edit in progress costs no churn).
"""

from __future__ import annotations

import copy
from collections.abc import Iterator

import pytest
from kubernetes import client as k8s

from dhcpless import keys
from dhcpless.keys import EventType
from dhcpless_sandbox.apiserver.request import RequestInfo
from dhcpless_sandbox.apiserver.server import SandboxServer
from dhcpless_sandbox.apiserver.status import ApiError
from tests.scenarios import steps
from tests.support import harness, objects

REF = f"metal3datatemplates.{keys.CAPM3_GROUP}/"


def _v6_template() -> objects.Obj:
    return objects.data_template(copy.deepcopy(objects.IPV6), "tmpl6")


@pytest.fixture
def world() -> Iterator[SandboxServer]:
    with harness.running() as sandbox:
        for obj in (objects.POOL4, objects.POOL6, objects.data_template(objects.IPV4)):
            harness.put(sandbox, obj)
        harness.put(sandbox, _v6_template())
        steps.register(sandbox, objects.host())
        assert harness.get(sandbox, "IPClaim", "host-0-pool4") is not None
        with sandbox.api_client() as api:  # relabelled: now the IPv6 template applies
            harness.patch_host(api, "host-0", [{"op": "replace", "path": "/metadata/annotations/"
                               + keys.TEMPLATE_REFERENCE_ANNOTATION.replace("/", "~1"),
                               "value": REF + "tmpl6"}])  # fmt: skip
        yield sandbox


def test_a_tick_releases_the_claim_of_a_pool_no_longer_used(world: SandboxServer) -> None:
    assert steps.ping(world) == 204
    assert harness.get(world, "IPClaim", "host-0-pool4") is None
    assert harness.get(world, "IPClaim", "host-0-pool6") is not None
    with world.api_client() as api:
        said = [m for _, r, m in harness.host_events(api, "host-0") if r == "ClaimReleased"]
    assert len(said) == 1 and "host-0-pool4" in said[0]
    assert steps.paused(world, "host-0")


def test_an_event_alone_releases_nothing(world: SandboxServer) -> None:
    host = steps.fresh(world, "BareMetalHost", "host-0")
    assert steps.fire(world, "host-registration", host, EventType.RESOURCE_UPDATE) == 204
    assert harness.get(world, "IPClaim", "host-0-pool4") is not None


def test_the_release_deletes_it_and_its_delete_event_claims_nothing_again(
    world: SandboxServer,
) -> None:
    """IPAM answers both claims before any tick: the round that releases the host also
    deletes the unused claim (once released no tick would look: it held its address for
    ever). That claim's DELETE event then finds it outside the record on the host's Secret,
    so it is not claimed again as one deleted under a released host."""
    debian = {"metadata": {"annotations": {keys.RAMDISK_PROFILE_ANNOTATION: "glean-debian"}}}
    with world.api_client() as api:  # a ramdisk that brings up an IPv6-only link: served
        k8s.CustomObjectsApi(api).patch_namespaced_custom_object(
            keys.CAPM3_GROUP, keys.CAPM3_VERSION, objects.NS, "metal3datatemplates", "tmpl6",
            debian,
        )  # fmt: skip
    host = steps.fresh(world, "BareMetalHost", "host-0")
    assert steps.fire(world, "host-registration", host, EventType.RESOURCE_UPDATE) == 204
    stale = steps.fulfil(world, "host-0-pool4")  # answered too: it holds an address
    answered = steps.fulfil(world, "host-0-pool6")
    assert steps.fire(world, "ipclaim-fulfilment", answered) == 204
    assert not steps.paused(world, "host-0")
    assert harness.get(world, "IPClaim", "host-0-pool4") is None
    assert steps.fire(world, "ipclaim-fulfilment", stale, EventType.RESOURCE_DELETE) == 204
    assert harness.get(world, "IPClaim", "host-0-pool4") is None
    with world.api_client() as api:
        reasons = [r for _, r, _ in harness.host_events(api, "host-0")]
    assert reasons.count("ClaimReleased") == 1 and "ClaimDeleted" not in reasons


def test_a_failed_delete_in_the_releasing_round_leaves_no_claim_behind(
    world: SandboxServer,
) -> None:
    """The unused claim's DELETE answers 503 once in the round that releases the host: the
    delivery is retried, and the claim is gone after it. It is deleted before the release
    (`claims.stale`): a release done and a delete failed after it left the claim for ever (the
    retry finds a released host, which nothing looks at for this), so its address with it."""
    debian = {"metadata": {"annotations": {keys.RAMDISK_PROFILE_ANNOTATION: "glean-debian"}}}
    with world.api_client() as api:
        k8s.CustomObjectsApi(api).patch_namespaced_custom_object(
            keys.CAPM3_GROUP, keys.CAPM3_VERSION, objects.NS, "metal3datatemplates", "tmpl6",
            debian,
        )  # fmt: skip
    host = steps.fresh(world, "BareMetalHost", "host-0")
    assert steps.fire(world, "host-registration", host, EventType.RESOURCE_UPDATE) == 204
    steps.fulfil(world, "host-0-pool4")
    answered = steps.fulfil(world, "host-0-pool6")
    failed: list[str] = []

    def once(info: RequestInfo) -> ApiError | None:
        if info.verb == "delete" and info.name == "host-0-pool4" and not failed:
            failed.append(info.name)
            return ApiError(503, "ServiceUnavailable", "the server is currently unable to handle")
        return None

    world.fault = once
    first = steps.fire(world, "ipclaim-fulfilment", answered)
    world.fault = lambda info: None
    assert failed and first == 503  # the delivery is retried, as Knative would
    assert steps.fire(world, "ipclaim-fulfilment", answered) == 204
    assert not steps.paused(world, "host-0")
    assert harness.get(world, "IPClaim", "host-0-pool4") is None
