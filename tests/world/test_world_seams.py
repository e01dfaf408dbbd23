"""The pure seams the world's modules were split along, each tested on its own.

Covers: reading glean's ifupdown output back (boot NIC direct, through a bond it is enslaved
to, through a VLAN on either, or not at all); IPAM's decisions from what it read (which claims
are pending, the `status.indexes` patch); the 404 helpers; copying a CloudEvent; holding back
and forgetting a reordered event; the broker-ingress HTTP answers; the periodic loop stopping.
"""

from __future__ import annotations

import threading
from datetime import UTC, datetime
from typing import Any

import pytest
from cloudevents.core.bindings.http import to_binary_event
from cloudevents.core.v1.event import CloudEvent
from kubernetes.client.exceptions import ApiException
from werkzeug.test import Client

from dhcpless_sandbox.controllers.custom_objects import ignore_missing, none_if_missing
from dhcpless_sandbox.controllers.periodic import Periodic
from dhcpless_sandbox.eventing.broker import Broker
from dhcpless_sandbox.eventing.dispatch import Connections, plain_connections
from dhcpless_sandbox.eventing.event_copy import with_attributes
from dhcpless_sandbox.eventing.faults import FaultInjector, Faults
from dhcpless_sandbox.eventing.ingress import ingress_app
from dhcpless_sandbox.runtime import wiring
from dhcpless_sandbox.standins.ifupdown import boot_nic_addresses, parse_ifupdown
from dhcpless_sandbox.standins.ipam_state import indexes_status, pending_claims
from tests.support.waits import event_set, stays

NOW = datetime(2025, 1, 2, 3, 4, 5, tzinfo=UTC)
STAMP = "2025-01-02T03:04:05Z"
DIRECT = "auto eth0\niface eth0 inet static\n    address 10.0.0.5\n    netmask 255.255.255.0\n"
BOND = (
    "iface eth0 inet manual\n    bond-master bond0\n"
    "iface bond0 inet static\n    address 10.0.0.6\n    post-up ifenslave bond0 eth0 eth1\n"
)
VLAN = "iface eth0.7 inet static\n    vlan-raw-device eth0\n    address 10.0.7.5\n"
OTHER_NIC = "iface eth1 inet static\n    address 10.0.0.9\n"
DHCP = "iface eth0 inet dhcp\n"


@pytest.mark.parametrize(
    ("files", "addresses"),
    [
        pytest.param({"/etc/network/interfaces.d/eth0": DIRECT}, ("10.0.0.5",), id="direct"),
        pytest.param({"/i/bond0": BOND}, ("10.0.0.6",), id="bond"),
        pytest.param({"/i/vlan": VLAN}, ("10.0.7.5",), id="vlan"),
        pytest.param({"/i/a": DIRECT, "/i/b": VLAN}, ("10.0.0.5", "10.0.7.5"), id="two-files"),
        pytest.param({"/i/eth1": OTHER_NIC}, (), id="other-nic"),
        pytest.param({"/i/eth0": DHCP}, (), id="dhcp-only"),
        pytest.param({}, (), id="nothing-written"),
    ],
)
def test_boot_nic_addresses(files: dict[str, str], addresses: tuple[str, ...]) -> None:
    result = boot_nic_addresses(parse_ifupdown(files), "eth0")
    assert result.addresses == addresses
    assert result.ok is bool(addresses)
    assert ("eth0 configured" in result.reason) is bool(addresses)


def _claim(name: str, pool: str, status: dict[str, Any], deleting: bool = False) -> dict[str, Any]:
    meta: dict[str, Any] = {"name": name, **({"deletionTimestamp": "t"} if deleting else {})}
    return {"metadata": meta, "spec": {"pool": {"name": pool}}, "status": status}


@pytest.mark.parametrize(
    ("claim", "pending"),
    [
        pytest.param(_claim("a", "p", {}), True, id="new"),
        pytest.param(_claim("a", "p", {"address": {"name": "x"}}), False, id="served"),
        pytest.param(_claim("a", "p", {"errorMessage": "Exhausted IP Pools"}), False, id="failed"),
        pytest.param(_claim("a", "p", {"address": {"name": "x"}}, True), True, id="deleting"),
        pytest.param(_claim("a", "other", {}), False, id="other-pool"),
    ],
)
def test_pending_claims(claim: dict[str, Any], pending: bool) -> None:
    assert pending_claims("p", [claim]) == ([claim] if pending else [])


@pytest.mark.parametrize(
    ("current", "allocations", "indexes"),
    [
        pytest.param({"a": "10.0.0.1"}, {"a": "10.0.0.1"}, None, id="unchanged"),
        pytest.param({}, {"a": "10.0.0.1"}, {"a": "10.0.0.1"}, id="added"),
        pytest.param({"a": "10.0.0.1"}, {}, {"a": None}, id="removed-is-nulled"),
    ],
)
def test_indexes_status(
    current: dict[str, str], allocations: dict[str, str], indexes: dict[str, Any] | None
) -> None:
    status = indexes_status({"status": {"indexes": current}}, allocations, NOW)
    expected = None if indexes is None else {"indexes": indexes, "lastUpdated": STAMP}
    assert status == expected


def _raise(status: int) -> int:
    raise ApiException(status=status)


@pytest.mark.parametrize(
    ("status", "raises"),
    [pytest.param(404, False, id="missing"), pytest.param(500, True, id="server-error")],
)
def test_missing_helpers(status: int, raises: bool) -> None:
    assert none_if_missing(lambda: 7) == 7
    if raises:
        with pytest.raises(ApiException):
            ignore_missing(lambda: _raise(status))
    else:
        assert none_if_missing(lambda: _raise(status)) is None


def _event(name: str = "e1") -> CloudEvent:
    attributes = {"type": "t", "source": "/s", "id": name, "kind": "IPClaim"}
    return CloudEvent(attributes=attributes, data={"n": 1})


def test_with_attributes_keeps_data_and_overrides() -> None:
    copy = with_attributes(_event(), id="e2", knativearrivaltime="now")
    assert (copy.get_id(), copy.get_extension("knativearrivaltime")) == ("e2", "now")
    assert (copy.get_extension("kind"), copy.get_data()) == ("IPClaim", {"n": 1})


def test_forgotten_held_event_is_lost() -> None:
    injector = FaultInjector(Faults(reorder=1.0))
    assert injector.apply(_event("e1")) == []  # held back
    injector.forget_held()
    assert [e.get_id() for e in injector.apply(_event("e2"))] == []  # e2 held, e1 gone
    assert [e.get_id() for e in injector.apply(_event("e3"))] == ["e3", "e2"]


@pytest.mark.parametrize(
    ("method", "body", "status"),
    [
        pytest.param("POST", "event", 202, id="event"),
        pytest.param("POST", "junk", 400, id="not-an-event"),
        pytest.param("GET", "", 405, id="get"),
        pytest.param("OPTIONS", "", 200, id="preflight"),
    ],
)
def test_ingress_answers(method: str, body: str, status: int) -> None:
    published: list[str] = []

    def publish(event: Any) -> int:
        published.append(event.get_id())
        return 202

    message = to_binary_event(_event())
    headers = dict(message.headers) if body == "event" else {"content-type": "text/plain"}
    data = message.body if body == "event" else body.encode()
    answer = Client(ingress_app(publish)).open("/", method=method, headers=headers, data=data)
    assert answer.status_code == status
    assert published == (["e1"] if status == 202 else [])


def test_periodic_runs_until_stopped() -> None:
    ran = threading.Event()
    counts: list[int] = []

    def action() -> None:
        counts.append(1)
        ran.set()

    loop = Periodic(0.01, action, "test-periodic")
    loop.start()
    event_set(ran, 2, "a first tick")
    loop.stop()
    settled = len(counts)
    # five periods: a loop still running would have ticked
    stays(lambda: len(counts) == settled, 0.05, "no tick after stop")
    assert len(counts) == settled


@pytest.mark.parametrize(
    ("connections", "pool_class"),
    [
        pytest.param(wiring.one_write_connections, "_HTTPPool", id="the-worlds-broker"),
        pytest.param(plain_connections, "HTTPConnectionPool", id="a-bare-broker"),
    ],
)
def test_a_broker_writes_events_through_the_connections_it_is_given(
    connections: Connections, pool_class: str
) -> None:
    """The world's Broker delivers each event in one write (the product's `kube.onewrite`, lent
    by the runtime: the eventing imports no adapter); a bare Broker's client is urllib3's."""
    broker = Broker(workers=2, connections=connections)
    pool = broker._dispatcher._http.connection_from_url("http://127.0.0.1:9/")
    assert type(pool).__name__ == pool_class
