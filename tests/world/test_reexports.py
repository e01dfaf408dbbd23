"""Every public name of the world modules is still importable from where it used to live.

The world modules were split into small ones; other code (and other teams' tests) import from
the original modules, which re-export. Each row is (old module, name, new home): the name must
be the very same object in both, so a copy drifting from its original fails here.
"""

from __future__ import annotations

import importlib

import pytest

MOVED = {
    "dhcpless_sandbox.eventing.eventsource": {
        "dhcpless_sandbox.controllers.reflector": [
            "WatchEvent",
            "WatchedResource",
            "Reflector",
            "ListHandler",
        ],
        "dhcpless_sandbox.eventing.source_events": ["Mode", "make_event", "guess_plural"],
        "dhcpless_sandbox.eventing.faults": ["Faults"],
    },
    "dhcpless_sandbox.eventing.broker": {
        "dhcpless_sandbox.eventing.delivery": [
            "BackoffPolicy",
            "Outcome",
            "Delivery",
            "Subscriber",
            "UrlSubscriber",
        ],
        "dhcpless_sandbox.eventing.filters": [
            "Filter",
            "subscriptions_filter",
            "attributes_filter",
            "trigger_filter",
        ],
    },
    "dhcpless_sandbox.standins.ipam": {
        "dhcpless_sandbox.standins.ipam_spec": ["IP", "Network", "PoolEntry", "PoolSpec"],
        "dhcpless_sandbox.standins.allocation": [
            "Allocation",
            "AllocationFailed",
            "allocate",
            "address_name",
        ],
        "dhcpless_sandbox.standins.ip_ranges": ["candidates"],
    },
    "dhcpless_sandbox.standins.bmo": {
        "dhcpless_sandbox.standins.ramdisk": ["GleanMode", "BootResult", "ramdisk_boot"],
        "dhcpless_sandbox.standins.bmh_status": [
            "host_status",
            "missing_secret_message",
            "network_data_from_secret",
        ],
    },
    "dhcpless_sandbox.runtime.runner": {
        "dhcpless_sandbox.controllers.workqueue": ["WorkQueue", "Handler"]
    },
    "dhcpless_sandbox.runtime.world": {
        "dhcpless_sandbox.runtime.wiring": [
            "DELIVERY",
            "TRIGGER_FILTERS",
            "SOURCES",
            "function_factory",
        ]
    },
    "dhcpless_sandbox.demo.run": {
        "dhcpless_sandbox.demo.inventory": ["inventory", "host", "create", "NAMESPACE", "POOL"],
        "dhcpless_sandbox.demo.report": ["HostRow", "observe", "report", "print_table", "Progress"],
    },
}
ROWS = [
    pytest.param(old, name, new, id=f"{old.rsplit('.', 1)[1]}.{name}")
    for old, homes in MOVED.items()
    for new, names in homes.items()
    for name in names
]


@pytest.mark.parametrize(("old", "name", "new"), ROWS)
def test_name_is_reexported(old: str, name: str, new: str) -> None:
    moved = getattr(importlib.import_module(new), name)
    assert getattr(importlib.import_module(old), name) is moved


PUBLIC_BEFORE_SPLIT = {
    "dhcpless_sandbox.eventing.eventsource": (
        "ApiServerSource EventHandler Faults ListHandler Mode Reflector Sink "
        "SourceResource WatchEvent WatchedResource guess_plural make_event"
    ),
    "dhcpless_sandbox.eventing.broker": (
        "Attributes BackoffPolicy Broker BrokerStats Delivery Filter MAX_TTL Outcome "
        "Subscriber Trigger UrlSubscriber attributes_filter classify parse_duration "
        "subscriptions_filter trigger_filter"
    ),
    "dhcpless_sandbox.standins.ipam": (
        "Allocation AllocationFailed IP IPAMController Network PoolEntry PoolKey PoolSpec "
        "REQUESTED_IP_ANNOTATION address_name allocate candidates"
    ),
    "dhcpless_sandbox.standins.bmo": (
        "BMOController BootResult GleanMode HostKey host_status missing_secret_message "
        "network_data_from_secret ramdisk_boot"
    ),
    "dhcpless_sandbox.runtime.runner": (
        "FunctionService Handler K QuietHandler Reaper WSGIApp WorkQueue serve"
    ),
    "dhcpless_sandbox.runtime.world": (
        "BROKER Counters DELIVERY DeadLetters OURS PING_SOURCE PING_TYPE SOURCES "
        "TRIGGER_FILTERS World WorldSettings function_factory"
    ),
    "dhcpless_sandbox.demo.run": (
        "NAMESPACE POOL ROLE TEMPLATE HostRow Progress create host inventory observe "
        "print_table report run_demo run_sandbox_world wait_for_hosts"
    ),
}
"""Each original module's public names before the split, all still importable from it."""


@pytest.mark.parametrize(
    ("old", "names"), [pytest.param(*row, id=row[0]) for row in PUBLIC_BEFORE_SPLIT.items()]
)
def test_every_old_public_name_remains(old: str, names: str) -> None:
    module = importlib.import_module(old)
    assert [name for name in names.split() if not hasattr(module, name)] == []
    assert all(hasattr(module, name) for name in getattr(module, "__all__", []))
