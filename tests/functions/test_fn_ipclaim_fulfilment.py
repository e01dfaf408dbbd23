"""ipclaim-fulfilment, posted real IPClaim CloudEvents, with the sandbox API behind it.

Covers: the Secret is written once every claim of the host has its address (binary and
structured), with the BMO label, our labels, an owner reference and rendered networkData; it
waits while any claim is unfulfilled; a failed claim gives a Warning Event quoting IPAM's
message; an existing different Secret is reported, never replaced; duplicates change nothing;
claims that are not ours cost no API call; the delete event of a claim of ours makes a
waiting host claim again; vanished hosts answer 204 and write nothing.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from kubernetes import client as k8s

from dhcpless import keys
from dhcpless.keys import EventType
from dhcpless.models import Secret
from dhcpless_sandbox.apiserver.server import SandboxServer
from tests.support import harness, objects, scenario

FN = "ipclaim-fulfilment"
SECRET = "host-0" + keys.SECRET_NAME_SUFFIX


@pytest.fixture
def world() -> Iterator[SandboxServer]:
    """A host whose claims host-registration has created (not yet fulfilled)."""
    with harness.running() as sandbox:
        for obj in (objects.POOL4, objects.POOL6, objects.data_template(objects.DUAL)):
            harness.put(sandbox, obj)
        host = harness.put(sandbox, objects.host())
        assert (
            harness.deliver(
                harness.client(sandbox, "host-registration"), EventType.RESOURCE_ADD, host
            )[0]
            == 204
        )
        sandbox.reset_audit()
        yield sandbox


def claim(sandbox: SandboxServer, pool: str) -> dict[str, Any]:
    found = harness.get(sandbox, "IPClaim", f"host-0-{pool}")
    assert found is not None
    return found


def fulfil(sandbox: SandboxServer, *pools: str) -> None:
    with sandbox.api_client() as api:
        for pool in pools:
            scenario.Ipam(api).fulfil(claim(sandbox, pool))


def post(sandbox: SandboxServer, pool: str, **kwargs: Any) -> tuple[int, str]:
    event_type = kwargs.pop("type", EventType.RESOURCE_UPDATE)
    return harness.deliver(harness.client(sandbox, FN), event_type, claim(sandbox, pool), **kwargs)


@pytest.mark.parametrize(
    "structured", [pytest.param(False, id="binary"), pytest.param(True, id="structured")]
)
def test_secret_written_when_every_claim_is_fulfilled(
    world: SandboxServer, structured: bool
) -> None:
    fulfil(world, "pool4", "pool6")
    assert post(world, "pool6", structured=structured) == (204, "")
    raw = harness.get(world, "Secret", SECRET)
    assert raw is not None
    labels = raw["metadata"]["labels"]
    assert labels[keys.BMO_SECRET_LABEL] == keys.BMO_SECRET_LABEL_VALUE
    assert labels[keys.HOST_LABEL] == "host-0"
    host = harness.get(world, "BareMetalHost", "host-0")
    assert host is not None
    assert [o["uid"] for o in raw["metadata"]["ownerReferences"]] == [host["metadata"]["uid"]]
    document = json.loads(Secret.from_k8s(raw).decoded(keys.NETWORK_DATA_KEY) or "")
    assert [n["ip_address"] for n in document["networks"]] == ["192.168.10.10", "2001:db8::10"]


def test_waits_while_a_claim_is_unfulfilled(world: SandboxServer) -> None:
    fulfil(world, "pool4")
    assert post(world, "pool4") == (204, "")
    assert harness.get(world, "Secret", SECRET) is None
    assert harness.writes(world, FN) == []


def test_failed_claim_is_reported(world: SandboxServer) -> None:
    group, version, plural = scenario.RESOURCES["IPClaim"]
    failure = {"status": {"errorMessage": "Failed to allocate address: Exhausted IP Pools"}}
    with world.api_client() as api:
        k8s.CustomObjectsApi(api).patch_namespaced_custom_object_status(
            group, version, objects.NS, plural, "host-0-pool6", failure
        )
    fulfil(world, "pool4")
    assert post(world, "pool6") == (204, "")
    with world.api_client() as api:
        events = [e for e in harness.host_events(api, "host-0") if e[1] == "ClaimFailed"]
    assert len(events) == 1 and events[0][0] == "Warning" and "Exhausted IP Pools" in events[0][2]
    assert harness.get(world, "Secret", SECRET) is None


def test_existing_different_secret_is_never_replaced(world: SandboxServer) -> None:
    mine = {keys.NETWORK_DATA_KEY: Secret.encode('{"links": [], "networks": [], "services": []}')}
    before = harness.put(
        world,
        {
            "apiVersion": "v1",
            "kind": "Secret",
            "metadata": {"name": SECRET, "namespace": objects.NS},
            "data": mine,
        },
    )
    fulfil(world, "pool4", "pool6")
    assert post(world, "pool6") == (204, "")  # the claim fulfilled last renders
    assert harness.get(world, "Secret", SECRET) == before
    with world.api_client() as api:
        assert "SecretConflict" in {e[1] for e in harness.host_events(api, "host-0")}


def test_duplicates_change_nothing(world: SandboxServer) -> None:
    fulfil(world, "pool4", "pool6")
    assert post(world, "pool6") == (204, "")  # the claim fulfilled last renders
    first = harness.get(world, "Secret", SECRET)
    assert first is not None
    assert post(world, "pool4") == post(world, "pool6") == (204, "")
    assert harness.get(world, "Secret", SECRET) == first
    secret_writes = [r for r in harness.writes(world, FN) if r.resource == "secrets"]
    assert len(secret_writes) == 1  # the duplicates read the Secret, find it equal, write nothing


def test_claims_not_ours_cost_nothing(world: SandboxServer) -> None:
    foreign = claim(world, "pool4")
    foreign["metadata"]["labels"] = {}
    assert harness.deliver(harness.client(world, FN), EventType.RESOURCE_UPDATE, foreign) == (
        204,
        "",
    )
    assert harness.audit_of(world, FN) == []


def _delete_claim(sandbox: SandboxServer, pool: str) -> None:
    group, version, plural = scenario.RESOURCES["IPClaim"]
    with sandbox.api_client() as api:
        k8s.CustomObjectsApi(api).delete_namespaced_custom_object(
            group, version, objects.NS, plural, f"host-0-{pool}"
        )


def test_delete_event_claims_again_for_a_waiting_host(world: SandboxServer) -> None:
    gone = claim(world, "pool4")
    _delete_claim(world, "pool4")
    client = harness.client(world, FN)
    assert harness.deliver(client, EventType.RESOURCE_DELETE, gone) == (204, "")
    again = claim(world, "pool4")
    assert again["metadata"]["uid"] != gone["metadata"]["uid"]
    created = [r.verb for r in harness.writes(world, FN) if r.resource == "ipclaims"]
    assert created == ["create"]  # only the missing pool's claim: pool6's is there (a LIST says)


def test_delete_event_and_vanished_host(world: SandboxServer) -> None:
    fulfil(world, "pool4", "pool6")
    orphan = claim(world, "pool4")
    with world.api_client() as api:
        group, version, plural = scenario.RESOURCES["BareMetalHost"]
        k8s.CustomObjectsApi(api).delete_namespaced_custom_object(
            group, version, objects.NS, plural, "host-0"
        )
    client = harness.client(world, FN)
    assert harness.deliver(client, EventType.RESOURCE_UPDATE, orphan) == (204, "")
    assert harness.writes(world, FN) == []


def test_a_retry_after_a_failed_release_still_releases(world: SandboxServer) -> None:
    """The writer created the Secret, then its release failed (503): Knative retries the
    event, the create now finds the Secret, and the retry must still release the host."""
    from dhcpless_sandbox.apiserver.request import RequestInfo
    from dhcpless_sandbox.apiserver.status import ApiError

    failures: list[RequestInfo] = []

    def fail_first_host_patch(request: RequestInfo) -> ApiError | None:
        if request.verb == "patch" and request.resource == "baremetalhosts" and not failures:
            failures.append(request)
            return ApiError(503, "ServiceUnavailable", "injected: API server busy")
        return None

    fulfil(world, "pool4", "pool6")
    world.fault = fail_first_host_patch
    assert post(world, "pool6")[0] == 503
    assert harness.get(world, "Secret", SECRET) is not None
    assert post(world, "pool6") == (204, "")
    host = harness.get(world, "BareMetalHost", "host-0")
    assert host is not None
    assert len(failures) == 1
    assert host["spec"].get("preprovisioningNetworkDataName") == SECRET
    assert keys.PAUSED_ANNOTATION not in host["metadata"].get("annotations", {})
