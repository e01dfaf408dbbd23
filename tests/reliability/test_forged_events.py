"""Trust nothing in an event: forged or lying events cause no write at all.

Each case posts one CloudEvent whose content disagrees with the API (the functions re-read
before they write) to the function its Trigger would reach, in the settled fuzz world. The
answer is 204 (nothing to do) or 400 (not an event we accept); the audit shows no write request
by any function, and the store's resourceVersion did not move.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator

import pytest
from cloudevents.core.bindings.http import to_binary_event

from dhcpless import keys
from dhcpless.keys import EventType
from tests.fuzz.world import Fuzzed, Obj, fuzzed, revision
from tests.support import harness, scenario

Forge = Callable[[Obj], Obj]


@pytest.fixture(scope="module")
def world() -> Iterator[Fuzzed]:
    with fuzzed() as made:
        yield made


def _ours(host: Obj) -> Obj:
    """The host as if paused for us with no network data yet: what would justify claims."""
    forged = copy.deepcopy(host)
    forged["metadata"]["annotations"][keys.PAUSED_ANNOTATION] = keys.PREPROVISIONING_PAUSE
    forged["spec"].pop("preprovisioningNetworkDataName", None)
    return forged


def _named_ours(host: Obj) -> Obj:
    forged = _ours(host)
    forged["spec"]["preprovisioningNetworkDataName"] = "user-secret"
    return forged


def _for_host(owner: str) -> Forge:
    def forge(claim: Obj) -> Obj:
        forged = copy.deepcopy(claim)
        forged["metadata"]["labels"][keys.HOST_LABEL] = owner
        return forged

    return forge


def _fulfilled(claim: Obj) -> Obj:
    forged = copy.deepcopy(claim)
    forged["status"] = {
        "address": {"name": "pool4-192-168-10-10", "namespace": claim["metadata"]["namespace"]}
    }
    return forged


def _renamed(name: str) -> Forge:
    def forge(obj: Obj) -> Obj:
        forged = copy.deepcopy(obj)
        forged["metadata"]["name"] = name
        return forged

    return forge


CASES = [
    pytest.param("released", _ours, "host-registration", id="host-not-paused-claims-ours"),
    pytest.param("capm3", _ours, "host-registration", id="capm3-pause-claims-ours"),
    pytest.param("user-pause", _ours, "host-registration", id="user-pause-claims-ours"),
    pytest.param("capm3", _named_ours, "host-registration", id="foreign-pause-claims-named"),
    pytest.param("released", _renamed("no-such-host"), "host-registration", id="host-not-there"),
    pytest.param(
        "broken-bad-mac-pool4", _for_host("capm3"), "ipclaim-fulfilment", id="claim-for-other-host"
    ),
    pytest.param(
        "broken-bad-mac-pool4", _for_host("released"), "ipclaim-fulfilment", id="claim-for-released"
    ),
    pytest.param(
        "broken-unknown-pool-nosuch", _fulfilled, "ipclaim-fulfilment", id="claim-lies-fulfilled"
    ),
    pytest.param(
        "broken-bad-mac-pool4", _for_host("no-such-host"), "ipclaim-fulfilment", id="claim-orphan"
    ),
    pytest.param("user-secret", lambda s: s, "secret-readiness", id="secret-we-did-not-write"),
    pytest.param(
        "user-secret", _renamed("no-such-secret"), "secret-readiness", id="secret-not-there"
    ),
]


def _post(world: Fuzzed, function: str, forged: Obj) -> int:
    event = scenario.cloudevent(EventType.RESOURCE_UPDATE, forged)
    message = to_binary_event(event)
    response = world.clients[function].post("/", headers=message.headers, data=message.body)
    status: int = response.status_code
    return status


@pytest.mark.parametrize(("name", "forge", "function"), CASES)
def test_forged_event_writes_nothing(world: Fuzzed, name: str, forge: Forge, function: str) -> None:
    real = next(o for o in world.known if o["metadata"]["name"] == name)
    world.sandbox.reset_audit()
    before = revision(world.sandbox)
    assert _post(world, function, forge(real)) in (204, 400)
    assert harness.writes(world.sandbox) == []
    assert revision(world.sandbox) == before


def test_a_justified_event_does_write(world: Fuzzed) -> None:
    """The detector works: the same path with a host that IS ours makes write requests."""
    world.sandbox.reset_audit()
    host = next(o for o in world.known if o["metadata"]["name"] == "broken-bad-mac")
    assert _post(world, "host-registration", host) == 204
    assert [r.resource for r in harness.writes(world.sandbox)] == ["ipclaims"]
