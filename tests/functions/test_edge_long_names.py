"""Hosts whose derived names the API would refuse stay paused with one Warning (issue 14,
finding 3), posted as real CloudEvents to host-registration with the sandbox API behind it.

Before: a host name over 63 characters made every claim create a 400 (label value too long),
and over 236 the Event saying so was refused too (its name too long): a silent stall. Now the
host stays paused with one `NameTooLong` Warning naming the name and the limit, and nothing
else is written; a pool name from a template that is not a valid name is an `InvalidTemplate`
Warning, with no request made for it. The sandbox refuses what a real API server refuses
(label values, names), so "nothing else written" here is what a cluster would see.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from dhcpless import keys
from dhcpless.keys import EventType
from dhcpless_sandbox.apiserver.server import SandboxServer
from tests.support import harness, objects

FN = "host-registration"
TEMPLATE_REF = "metal3datatemplates.infrastructure.cluster.x-k8s.io/"


@pytest.fixture(scope="module")
def world() -> Iterator[SandboxServer]:
    with harness.running() as sandbox:
        harness.put(sandbox, objects.POOL4)
        harness.put(sandbox, objects.data_template(objects.IPV4))
        yield sandbox


def _name(length: int, tag: str) -> str:
    """A valid host name of `length` characters, unique per test by `tag`."""
    name = (tag + "-" + "node-1.rack-2." * 20)[: length - 1] + "x"
    assert len(name) == length
    return name


def _post(world: SandboxServer, host: dict[str, Any]) -> tuple[int, str]:
    return harness.deliver(harness.client(world, FN), EventType.RESOURCE_ADD, host)


def _events(world: SandboxServer, host: str) -> list[tuple[str, str, str]]:
    with world.api_client() as api:
        return harness.host_events(api, host)


def _writes(world: SandboxServer, since: int) -> list[tuple[str, str]]:
    """The function's writes after the first `since` of them."""
    return [(r.verb, r.resource) for r in harness.writes(world, FN)[since:]]


@pytest.mark.parametrize(
    ("length", "refused"),
    [
        pytest.param(63, False, id="63"),
        pytest.param(64, True, id="64"),
        pytest.param(233, True, id="233"),
        pytest.param(234, True, id="234"),
        pytest.param(253, True, id="253"),
    ],
)
def test_a_host_name_too_long_for_a_label_keeps_the_host_paused(
    world: SandboxServer, length: int, refused: bool
) -> None:
    name = _name(length, f"l{length}")
    stored = harness.put(world, objects.host(name))
    before = len(harness.writes(world, FN))
    for _ in range(2):  # a redelivery writes nothing new
        assert _post(world, stored) == (204, "")
    events = _events(world, name)
    claim = harness.get(world, "IPClaim", f"{name}-pool4")
    if not refused:
        assert claim is not None and claim["metadata"]["labels"][keys.HOST_LABEL] == name
        return
    assert claim is None
    assert [(kind, reason) for kind, reason, _ in events] == [("Warning", "NameTooLong")]
    assert f"host name is {length} characters" in events[0][2] and "at most 63" in events[0][2]
    assert set(_writes(world, before)) == {("create", "events")}  # the second one: 409
    current = harness.get(world, "BareMetalHost", name)
    assert current is not None and keys.PAUSED_ANNOTATION in current["metadata"]["annotations"]


def test_a_host_name_of_254_never_exists(world: SandboxServer) -> None:
    """The API refuses the host itself (the sandbox as a cluster would), so no event names it."""
    with pytest.raises(Exception, match="must be no more than 253"):
        harness.put(world, objects.host(_name(254, "l254")))


def _template_with_pool(name: str, pool: str) -> dict[str, Any]:
    network = {**objects.IPV4, "services": {}}
    network["networks"] = {"ipv4": [{**objects.IPV4["networks"]["ipv4"][0]}]}
    ipv4 = network["networks"]["ipv4"][0]
    ipv4["ipAddressFromIPPool"] = pool
    ipv4["routes"] = [{"network": "0.0.0.0", "prefix": 0, "gateway": {"fromIPPool": pool}}]
    return objects.data_template(network, name)


@pytest.mark.parametrize(
    ("pool", "host_length", "reason", "says"),
    [
        pytest.param("p" * 190, 63, "NameTooLong", "above 253", id="claim-name-254"),
        pytest.param("p" * 189, 63, None, "", id="claim-name-253"),
        pytest.param("../x", 10, "InvalidTemplate", "is not a DNS-1123 subdomain", id="dotdot"),
        pytest.param("Pool_4", 10, "InvalidTemplate", "is not a DNS-1123 subdomain", id="upper"),
    ],
)
def test_pool_names_from_a_template_are_checked_before_any_request(
    world: SandboxServer, pool: str, host_length: int, reason: str | None, says: str
) -> None:
    tag = f"t{len(pool)}-{ord(pool[0])}"
    harness.put(world, _template_with_pool(tag, pool))
    name = _name(host_length, tag)
    host = objects.host(name, template=TEMPLATE_REF + tag)
    before = len(harness.audit_of(world, FN))
    assert _post(world, harness.put(world, host)) == (204, "")
    audit = harness.audit_of(world, FN)[before:]
    assert all(pool not in r.name for r in audit), "no request names the pool"
    events = _events(world, name)
    if reason is None:
        assert harness.get(world, "IPClaim", f"{name}-{pool}") is not None
        return
    assert [(kind, r) for kind, r, _ in events] == [("Warning", reason)]
    assert says in events[0][2]
    assert {(r.verb, r.resource) for r in audit if r.verb not in ("get", "list")} == {
        ("create", "events")
    }
