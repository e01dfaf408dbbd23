"""The reads the chain chooses to make per event, and why each one left is needed (issue 15).

Covers: a host's ADD creates its claims with no LIST first, an UPDATE lists them; an ADD
whose claim name is taken by another host's claim still ends in the conflict Warning, the
claim untouched; the host GET is what makes a re-created host's claims carry the live UID; an
IPPool event lists our claims only when the pool may have gained room (first seen, spec
changed, an address freed, a claim of it failed since), not for IPAM's status write after an
allocation; a claim event at a version a finished run already listed costs no request, a
newer version reads again.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask.testing import FlaskClient
from kubernetes import client as k8s

from dhcpless import keys
from dhcpless.keys import EventType
from dhcpless_sandbox.apiserver.server import SandboxServer
from tests.support import harness, objects, scenario
from tests.support.waits import seconds

HR, IF = "host-registration", "ipclaim-fulfilment"
CUSTOM = k8s.CustomObjectsApi


@pytest.fixture
def world() -> Iterator[SandboxServer]:
    with harness.running() as sandbox:
        for obj in (objects.POOL4, objects.POOL6, objects.data_template(objects.DUAL)):
            harness.put(sandbox, obj)
        yield sandbox


def requests(sandbox: SandboxServer, function: str) -> list[str]:
    return sorted(f"{r.verb} {r.resource}" for r in harness.audit_of(sandbox, function))


def claim_owners(sandbox: SandboxServer) -> list[str]:
    found = harness.get(sandbox, "IPClaim", "host-0-pool4")
    assert found is not None
    return [o["uid"] for o in found["metadata"]["ownerReferences"]]


@pytest.mark.parametrize(
    ("event_type", "lists"),
    [
        pytest.param(EventType.RESOURCE_ADD, 0, id="add-creates-without-listing"),
        pytest.param(EventType.RESOURCE_UPDATE, 1, id="update-lists-first"),
    ],
)
def test_a_fresh_host_claims_without_a_list(
    world: SandboxServer, event_type: EventType, lists: int
) -> None:
    host = harness.put(world, objects.host())
    world.reset_audit()
    assert harness.deliver(harness.client(world, HR), event_type, host) == (204, "")
    assert requests(world, HR).count("list ipclaims") == lists
    assert claim_owners(world) == [host["metadata"]["uid"]]


def test_an_add_finding_another_hosts_claim_reports_it(world: SandboxServer) -> None:
    """The optimistic create finds the name taken (`act.Found`): the round is decided again
    with the claims listed, and the claim that is not ours is a conflict, left alone."""
    other = harness.put(world, objects.host(name="other"))
    foreign = objects.claim("host-0-pool4", "pool4", other["metadata"]["uid"], "other")
    before = harness.put(world, foreign)
    host = harness.put(world, objects.host())
    assert harness.deliver(harness.client(world, HR), EventType.RESOURCE_ADD, host) == (204, "")
    assert harness.get(world, "IPClaim", "host-0-pool4") == before
    with world.api_client() as api:
        reasons = {(kind, reason) for kind, reason, _ in harness.host_events(api, "host-0")}
    assert ("Warning", "ClaimConflict") in reasons


def test_the_host_get_gives_a_recreated_host_its_own_uid(world: SandboxServer) -> None:
    """Why host-registration still reads the host the event carries: the copy may be of a
    host deleted and re-created under its name since; claims must carry the live UID."""
    old = harness.put(world, objects.host())
    group, version, plural = scenario.RESOURCES["BareMetalHost"]
    with world.api_client() as api:
        CUSTOM(api).delete_namespaced_custom_object(group, version, objects.NS, plural, "host-0")
    new = harness.put(world, objects.host())
    assert new["metadata"]["uid"] != old["metadata"]["uid"]
    assert harness.deliver(harness.client(world, HR), EventType.RESOURCE_ADD, old) == (204, "")
    assert claim_owners(world) == [new["metadata"]["uid"]]


def _patch_pool(sandbox: SandboxServer, body: dict[str, Any], status: bool) -> None:
    group, version, plural = scenario.RESOURCES["IPPool"]
    with sandbox.api_client() as api:
        patch = CUSTOM(api).patch_namespaced_custom_object_status if status else None
        patch = patch or CUSTOM(api).patch_namespaced_custom_object
        patch(group, version, objects.NS, plural, "pool4", body)


def _take(sandbox: SandboxServer, fn: FlaskClient) -> None:
    _patch_pool(
        sandbox, {"status": {"indexes": {"a": "192.168.10.10", "b": "192.168.10.11"}}}, True
    )


def _free(sandbox: SandboxServer, fn: FlaskClient) -> None:
    _patch_pool(sandbox, {"status": {"indexes": {"a": None}}}, True)


def _grow(sandbox: SandboxServer, fn: FlaskClient) -> None:
    _patch_pool(
        sandbox, {"spec": {"pools": [{"start": "192.168.10.10", "end": "192.168.10.30"}]}}, False
    )


def _fail_a_claim(sandbox: SandboxServer, fn: FlaskClient) -> None:
    host = harness.put(sandbox, objects.host())
    harness.deliver(harness.client(sandbox, HR), EventType.RESOURCE_ADD, host)
    failure = {"status": {"errorMessage": "Failed to allocate address: Exhausted IP Pools"}}
    group, version, plural = scenario.RESOURCES["IPClaim"]
    with sandbox.api_client() as api:
        CUSTOM(api).patch_namespaced_custom_object_status(
            group, version, objects.NS, plural, "host-0-pool4", failure
        )
    failed = harness.get(sandbox, "IPClaim", "host-0-pool4") or {}
    assert harness.deliver(fn, EventType.RESOURCE_UPDATE, failed)[0] == 204


Change = Callable[[SandboxServer, FlaskClient], None]


@pytest.mark.parametrize(
    ("change", "lists"),
    [
        pytest.param(_take, False, id="status-write-after-an-allocation"),
        pytest.param(_free, True, id="an-address-freed"),
        pytest.param(_grow, True, id="spec-changed"),
        pytest.param(_fail_a_claim, True, id="a-claim-of-it-failed-since"),
    ],
)
def test_a_pool_event_lists_only_when_room_may_have_appeared(
    world: SandboxServer, change: Change, lists: bool
) -> None:
    fn = harness.client(world, IF)  # one app: one process's hints
    _patch_pool(world, {"status": {"indexes": {"a": "192.168.10.10"}}}, True)
    world.reset_audit()
    pool = harness.get(world, "IPPool", "pool4") or {}
    assert harness.deliver(fn, EventType.RESOURCE_UPDATE, pool)[0] == 204
    assert requests(world, IF).count("list ipclaims") == 1  # first seen: lists
    change(world, fn)
    world.reset_audit()
    pool = harness.get(world, "IPPool", "pool4") or {}
    assert harness.deliver(fn, EventType.RESOURCE_UPDATE, pool)[0] == 204
    assert ("list ipclaims" in requests(world, IF)) == lists


def test_a_claim_version_already_decided_on_costs_nothing(world: SandboxServer) -> None:
    host = harness.put(world, objects.host())
    assert harness.deliver(harness.client(world, HR), EventType.RESOURCE_ADD, host)[0] == 204
    with world.api_client() as api:
        for pool in ("pool4", "pool6"):
            scenario.Ipam(api).fulfil(harness.get(world, "IPClaim", f"host-0-{pool}") or {})
    fn = harness.client(world, IF)
    first, second = (harness.get(world, "IPClaim", f"host-0-{p}") or {} for p in ("pool4", "pool6"))
    assert harness.deliver(fn, EventType.RESOURCE_UPDATE, first)[0] == 204  # renders, releases
    assert harness.get(world, "Secret", "host-0" + keys.SECRET_NAME_SUFFIX) is not None
    world.reset_audit()
    assert harness.deliver(fn, EventType.RESOURCE_UPDATE, second)[0] == 204
    assert requests(world, IF) == []
    group, version, plural = scenario.RESOURCES["IPClaim"]
    with world.api_client() as api:  # a newer version: read again
        body = {"metadata": {"annotations": {"example.com/touched": "yes"}}}
        CUSTOM(api).patch_namespaced_custom_object(
            group, version, objects.NS, plural, "host-0-pool6", body
        )
    newer = harness.get(world, "IPClaim", "host-0-pool6") or {}
    assert harness.deliver(fn, EventType.RESOURCE_UPDATE, newer)[0] == 204
    assert "list ipclaims" in requests(world, IF)


def test_two_answers_of_one_host_at_once_write_one_secret(world: SandboxServer) -> None:
    """Both claims answered, both events delivered at the same time to one process (the
    asynchronous broker does this): one run renders and releases, the other waits for it
    (`chain.serial`), then finds its version decided on: one Secret create, no conflict."""
    host = harness.put(world, objects.host())
    assert harness.deliver(harness.client(world, HR), EventType.RESOURCE_ADD, host)[0] == 204
    with world.api_client() as api:
        for pool in ("pool4", "pool6"):
            scenario.Ipam(api).fulfil(harness.get(world, "IPClaim", f"host-0-{pool}") or {})
    claims = [harness.get(world, "IPClaim", f"host-0-{p}") or {} for p in ("pool4", "pool6")]
    app = harness.client(world, IF).application  # one app: one process
    world.reset_audit()
    start = threading.Barrier(2)
    answers: list[int] = []

    def deliver(claim: dict[str, Any]) -> None:
        start.wait(timeout=seconds(30))
        answers.append(harness.deliver(app.test_client(), EventType.RESOURCE_UPDATE, claim)[0])

    threads = [threading.Thread(target=deliver, args=(c,)) for c in claims]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=seconds(60))
    assert answers == [204, 204]
    made = requests(world, IF)
    assert made.count("create secrets") == 1
    assert "get secrets" not in made  # a create that met the object reads it (`act.Found`)
