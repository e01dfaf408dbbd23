"""Nothing read from a Secret is repeated in an Event, a log line or an HTTP answer (issue 14,
finding 4).

A hostile Secret holds a unique marker (`QZnn`) in every free-form string field: link ids and
names, MACs, addresses, netmasks, gateways, DNS servers, bond options, network ids, and the
keys and text of documents that are not network data at all. The documents together break
every rule that can apply to a Secret (checked below, so the table cannot silently shrink).
Before this change the validators' messages quoted those strings into Warning Events and the
functions' logs; now what is found in a Secret is said by rule and JSON path alone
(`render.redact`), and a Secret the host names gets one wording whatever the cause
(`chain.decide.messages`), so Events do not tell a missing Secret from an existing one.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterator
from typing import Any

import pytest
from kubernetes import client as k8s

from dhcpless import keys
from dhcpless.keys import EventType, ValidationRule
from dhcpless.models import BareMetalHost, Secret
from dhcpless.render import redact
from dhcpless.render.validate import validate_network_data
from dhcpless_sandbox.apiserver.server import SandboxServer
from tests.support import harness, objects

MARKER = re.compile(r"QZ\d\d")
LINKS = [
    {"id": "eth0QZ01", "type": "phy", "ethernet_mac_address": "QZ02", "name": "QZ03;x", "mtu": 9},
    {
        "id": "bondQZ04",
        "type": "bond",
        "bond_mode": "QZ05",
        "bond_links": ["QZ06", "QZ24"],  # two ports: the ramdisk rule (glean per NIC) too
        "bond_xmit_hash_policy": "QZ07",
        "bond_miimon": "QZ23;",
        "ethernet_mac_address": "QZ08",
    },
    {
        "id": "vlanQZ09",
        "type": "vlan",
        "vlan_link": "vlanQZ10",
        "vlan_id": 5,
        "vlan_mac_address": "QZ11",
    },
    {"id": "vlanQZ10", "type": "vlan", "vlan_link": "vlanQZ09", "vlan_id": 6},
    {"id": "bondQZ04", "type": "phy", "ethernet_mac_address": "QZ12"},
]
ROUTE = {
    "network": "QZ18",
    "netmask": "QZ19",
    "gateway": "QZ20",
    "services": [{"type": "dns", "address": "QZ21"}],
}
NETWORK = {
    "id": "QZ13",
    "type": "ipv4",
    "link": "QZ14",
    "ip_address": "QZ15",
    "netmask": "QZ16",
    "network_id": "QZ17",
    "routes": [ROUTE],
}
STRUCTURED = {
    "links": LINKS,
    "networks": [NETWORK],
    "services": [{"type": "dns", "address": "QZ22"}],
}
UNPARSEABLE = {
    "links": [{"id": "QZ30", "type": "phy", "mtu": "QZ31"}],
    "networks": [{"id": "QZ32", "type": "QZ33", "link": "QZ30"}],
}
DOCUMENTS = [
    pytest.param(json.dumps(STRUCTURED), id="every-rule"),
    pytest.param(json.dumps(UNPARSEABLE), id="not-parseable"),
    pytest.param("QZ40: [QZ41", id="broken-yaml"),
    pytest.param(json.dumps({"QZ42": "QZ43"}), id="not-network-data"),
]
FROM_A_SECRET = set(ValidationRule) - {ValidationRule.RENDER, ValidationRule.POOL_OVERLAP}
"""Rendering and pool overlap judge what we render from a template, never a Secret."""


def _host() -> BareMetalHost:
    return BareMetalHost.from_k8s({**objects.host(), "metadata": {"name": "h", "namespace": "n"}})


def test_the_documents_break_every_rule_a_secret_can_break() -> None:
    found = [
        *validate_network_data(STRUCTURED, _host()),
        *validate_network_data(UNPARSEABLE, _host()),
    ]
    assert {p.rule for p in found} == FROM_A_SECRET
    assert any(MARKER.search(p.message) for p in found), "unredacted messages quote values"


@pytest.mark.parametrize(
    "document",
    [pytest.param(STRUCTURED, id="structured"), pytest.param(UNPARSEABLE, id="unparseable")],
)
def test_redacted_problems_quote_nothing_and_keep_rule_and_path(document: dict[str, Any]) -> None:
    found = validate_network_data(document, _host())
    said = redact.redacted_all(found)
    assert [p.rule for p in said] == [p.rule for p in found]
    assert [p.path for p in said] == [p.path for p in found]
    assert not [str(p) for p in said if MARKER.search(str(p))]


@pytest.fixture(scope="module")
def world() -> Iterator[SandboxServer]:
    with harness.running() as sandbox:
        yield sandbox


def _secret(name: str, text: str, owner: dict[str, Any] | None) -> dict[str, Any]:
    """A user's Secret (no owner) or ours for `owner` (labels and ownerReference)."""
    meta: dict[str, Any] = {"name": name, "namespace": objects.NS}
    if owner is not None:
        meta["labels"] = {
            keys.HOST_LABEL: owner["metadata"]["name"],
            keys.MANAGED_BY_LABEL: keys.MANAGED_BY_VALUE,
        }
        ref = {k: owner[k] for k in ("apiVersion", "kind")}
        meta["ownerReferences"] = [
            {**ref, "name": owner["metadata"]["name"], "uid": owner["metadata"]["uid"]}
        ]
    data = {keys.NETWORK_DATA_KEY: Secret.encode(text)}
    return {"apiVersion": "v1", "kind": "Secret", "metadata": meta, "data": data}


def _deliver(world: SandboxServer, function: str, obj: dict[str, Any]) -> str:
    status, body = harness.deliver(harness.client(world, function), EventType.RESOURCE_ADD, obj)
    assert status in (204, 400), (status, body)
    return body


def _leaks(texts: list[str]) -> list[str]:
    return [t for t in texts if MARKER.search(t)]


@pytest.mark.parametrize("document", DOCUMENTS)
def test_no_marker_in_events_logs_or_answers(
    world: SandboxServer,
    document: str,
    caplog: pytest.LogCaptureFixture,
    request: pytest.FixtureRequest,
) -> None:
    caplog.set_level(logging.DEBUG)
    tag = request.node.callspec.id
    named = harness.put(world, objects.host(f"named-{tag}", data_name=f"mine-{tag}", template=None))
    ours = harness.put(world, objects.host(f"ours-{tag}"))
    secrets = [
        harness.put(world, _secret(f"mine-{tag}", document, None)),
        harness.put(world, _secret(f"ours-{tag}{keys.SECRET_NAME_SUFFIX}", document, ours)),
    ]
    bodies = [_deliver(world, "secret-readiness", s) for s in secrets]
    bodies.append(_deliver(world, "host-registration", named))
    with world.api_client() as api:
        listed = k8s.CoreV1Api(api).list_namespaced_event(objects.NS).items
    events = [e for e in listed if e.involved_object.name in (f"named-{tag}", f"ours-{tag}")]
    said = [f"{e.reason} {e.message}" for e in events]
    told = {e.involved_object.name for e in events}
    assert {f"named-{tag}", f"ours-{tag}"} <= told, "both hosts were told why they stay paused"
    logged = [r.getMessage() + (r.exc_text or "") for r in caplog.records]
    assert (_leaks(said), _leaks(logged), _leaks(bodies)) == ([], [], [])


def test_a_missing_and_a_hostile_named_secret_read_the_same(world: SandboxServer) -> None:
    """Someone who reads Events but not Secrets cannot tell whether the named Secret exists."""
    harness.put(world, _secret("exists", json.dumps(STRUCTURED), None))
    for host, secret in (("sees-hostile", "exists"), ("sees-missing", "absent")):
        stored = harness.put(world, objects.host(host, data_name=secret, template=None))
        _deliver(world, "host-registration", stored)
    with world.api_client() as api:
        hostile = harness.host_events(api, "sees-hostile")
        missing = harness.host_events(api, "sees-missing")
    assert len(hostile) == 1
    # Each message names its own host (the `dhcpless status` hint); only the Secret may differ.
    assert [
        (k, r, m.replace("exists", "?").replace("sees-hostile", "?")) for k, r, m in hostile
    ] == [(k, r, m.replace("absent", "?").replace("sees-missing", "?")) for k, r, m in missing]
