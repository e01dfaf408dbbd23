"""A claim deleted after release while the event source is down (its DELETE event lost, no
replay) is claimed again by resync, and the host keeps its address (README "IP lifecycle").

Two hosts; host-000's claim is deleted between a stop and a start of the ApiServerSource
stand-in, so ipclaim-fulfilment never hears of it. The next resync tick finds the claim the
host's record names missing, claims it again (`ClaimDeleted` Warning: only resync can say it,
the DELETE event having been lost), and
IPAM, with nobody else claiming meanwhile, gives it the address it had: the one its Secret,
and so its ramdisk, still uses.
"""

from __future__ import annotations

from typing import Any

import pytest
from kubernetes import client

from dhcpless import keys
from dhcpless_sandbox.controllers.custom_objects import CustomObjects
from dhcpless_sandbox.demo.inventory import POOL, create, inventory
from dhcpless_sandbox.runtime.world import World
from tests.support.waits import eventually

NS = "demo"
HOSTS = ("host-000", "host-001")
CLAIM = f"host-000-{POOL}"


def _ipam(api: client.ApiClient) -> CustomObjects:
    return CustomObjects(api, keys.IPAM_GROUP, keys.IPAM_VERSION)


def _address(api: client.ApiClient, claim: str) -> str | None:
    """The address IPAM gave `claim` (None: no claim, or not answered yet)."""
    found = _ipam(api).get("ipclaims", NS, claim) or {}
    ref = (found.get("status") or {}).get("address") or {}
    named = _ipam(api).get("ipaddresses", NS, ref["name"]) if ref.get("name") else None
    return None if named is None else str(named["spec"]["address"])


def _host(api: client.ApiClient, name: str) -> dict[str, Any]:
    found = CustomObjects(api, keys.BMO_GROUP, keys.BMO_VERSION).get("baremetalhosts", NS, name)
    assert found is not None
    return found


def _released(api: client.ApiClient) -> bool:
    annotations = [_host(api, n)["metadata"].get("annotations") or {} for n in HOSTS]
    return all(keys.CLAIMED_POOLS_ANNOTATION in a for a in annotations)


def _claim_deleted(api: client.ApiClient) -> bool:
    events = client.CoreV1Api(api).list_namespaced_event(NS).items
    return any(e.involved_object.name == "host-000" and e.reason == "ClaimDeleted" for e in events)


@pytest.mark.slow
def test_resync_claims_again_when_the_delete_event_was_lost(world: World) -> None:
    api = world.api_client()
    create(api, inventory(len(HOSTS), NS))
    eventually(lambda: _released(api), timeout=60, what="both hosts released")
    booted = eventually(lambda: _address(api, CLAIM), timeout=30, what="host-000's address")
    old_uid = _ipam(api).get("ipclaims", NS, CLAIM)["metadata"]["uid"]  # type: ignore[index]

    def gone() -> bool:  # a tick may already have claimed again: a new UID
        found = _ipam(api).get("ipclaims", NS, CLAIM)
        return found is None or found["metadata"]["uid"] != old_uid

    def delete_unheard() -> None:
        _ipam(api).delete("ipclaims", NS, CLAIM)
        eventually(gone, timeout=30, what="the claim deleted")

    world.restart_event_source(between=delete_unheard)
    eventually(lambda: _claim_deleted(api), timeout=30, what="ClaimDeleted")
    again = eventually(lambda: _address(api, CLAIM), timeout=30, what="the claim answered")
    assert again == booted
    renewed = _ipam(api).get("ipclaims", NS, CLAIM)
    assert renewed is not None and renewed["metadata"]["uid"] != old_uid
    owners = [o["uid"] for o in renewed["metadata"]["ownerReferences"]]
    assert owners == [_host(api, "host-000")["metadata"]["uid"]]
    other = _address(api, "host-001-" + POOL)
    assert other is not None and other != booted
