"""The whole chain on a sandbox API server, with events forwarded by a driver (no plumbing).

Covers: a paused host ends unpaused, pointing at a Secret whose network data is what CAPM3
would render from the claimed addresses, for IPv4, IPv6, dual stack, a bond with a VLAN and
a template with no pools (IPv6 alone and the bond on templates whose ramdisk profile can
configure them: glean-debian, nmstate; under the community ramdisk both stay paused); via the
annotation and via a Metal3MachineTemplate hostSelector;
several hosts on one pool get distinct addresses; duplicated, reordered, replayed (stale) and
structured-mode deliveries end in exactly the same state; no delivery is ever answered 400;
each function writes only what it is responsible for (as the sandbox audit shows).
"""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest

from dhcpless import keys
from dhcpless.models import Secret
from tests.support import harness, objects, scenario
from tests.support.scenario import ChainResult, Delivery

pytestmark = pytest.mark.e2e
HOST = "host-0"
SECRET = HOST + keys.SECRET_NAME_SUFFIX


def world(
    network_data: dict[str, Any], *hosts: dict[str, Any], profile: str = ""
) -> list[dict[str, Any]]:
    return [
        objects.POOL4,
        objects.POOL6,
        objects.data_template(network_data, profile=profile),
        *(hosts or [objects.host()]),
    ]


def run(objs: list[dict[str, Any]], delivery: Delivery | None = None) -> ChainResult:
    with harness.running() as sandbox:
        return scenario.run_chain(sandbox, objs, harness.IDENTITIES, delivery)


def network_data(secret: Secret) -> dict[str, Any]:
    result: dict[str, Any] = json.loads(secret.decoded(keys.NETWORK_DATA_KEY) or "")
    return result


def assert_released(result: ChainResult, host: str = HOST) -> dict[str, Any]:
    released = result.hosts[host]
    assert keys.PAUSED_ANNOTATION not in released.annotations
    assert released.spec.preprovisioning_network_data_name == host + keys.SECRET_NAME_SUFFIX
    assert set(result.statuses) == {204}
    return network_data(result.secrets[host + keys.SECRET_NAME_SUFFIX])


def addresses(document: dict[str, Any]) -> list[tuple[str, str, str]]:
    return [(n["type"], n["ip_address"], n["netmask"]) for n in document["networks"]]


V4 = ("ipv4", "192.168.10.10", "255.255.255.0")
V6 = ("ipv6", "2001:db8::10", "ffff:ffff:ffff:ffff::")


@pytest.mark.parametrize(
    ("template", "profile", "expected_addresses", "link_types"),
    [
        pytest.param(objects.IPV4, "", [V4], ["phy"], id="ipv4"),
        pytest.param(objects.IPV6, "glean-debian", [V6], ["phy"], id="ipv6"),
        pytest.param(objects.DUAL, "", [V4, V6], ["phy"], id="dual-stack"),
        pytest.param(objects.BOND_VLAN, "nmstate", [V4], ["bond", "phy", "phy", "vlan"], id="bond"),
    ],
)
def test_paused_host_ends_unpaused_with_its_network_data(
    template: dict[str, Any],
    profile: str,
    expected_addresses: list[tuple[str, str, str]],
    link_types: list[str],
) -> None:
    result = run(world(template, profile=profile))
    document = assert_released(result)
    recorded = result.secrets[SECRET].metadata.annotations[keys.RAMDISK_PROFILE_ANNOTATION]
    assert recorded == (profile or "glean-el9")
    assert addresses(document) == expected_addresses
    assert [link["type"] for link in document["links"]] == link_types


def test_bond_vlan_rendered_like_capm3() -> None:
    document = assert_released(run(world(objects.BOND_VLAN, profile="nmstate")))
    bond, _, _, vlan = document["links"]
    assert bond["bond_links"] == ["eth0", "eth1"] and bond["bond_xmit_hash_policy"] == "layer3+4"
    assert (vlan["vlan_id"], vlan["vlan_link"], vlan["vlan_mac_address"]) == (
        100,
        "bond0",
        objects.MAC,
    )
    assert document["networks"][0]["link"] == "vlan100"


@pytest.mark.parametrize(
    "template", [pytest.param(objects.IPV6, id="ipv6"), pytest.param(objects.BOND_VLAN, id="bond")]
)
def test_what_the_community_ramdisk_cannot_configure_stays_paused(template: dict[str, Any]) -> None:
    result = run(world(template))
    assert result.hosts[HOST].annotations[keys.PAUSED_ANNOTATION] == keys.PREPROVISIONING_PAUSE
    assert SECRET not in result.secrets and set(result.statuses) == {204}


def test_the_fleet_s_profile_from_the_environment_judges_a_template_without_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(keys.RAMDISK_PROFILE_ENV, "nmstate")  # read by each function's app
    result = run(world(objects.BOND_VLAN))
    assert_released(result)
    recorded = result.secrets[SECRET].metadata.annotations[keys.RAMDISK_PROFILE_ANNOTATION]
    assert recorded == "nmstate"


def test_template_without_pools_is_rendered_without_claims() -> None:
    result = run(world(objects.NO_POOLS))
    document = assert_released(result)
    assert document["networks"] == [
        {"id": "dhcp4", "link": "eth0", "routes": [], "type": "ipv4_dhcp", "network_id": "dhcp4"}
    ]
    assert document["services"] == [{"address": "9.9.9.9", "type": "dns"}]
    assert result.invocations["ipclaim-fulfilment"] == 0


def test_host_selector_path() -> None:
    selected = objects.host(template=None, labels={"role": "worker"})
    objs = [
        *world(objects.IPV4, selected),
        objects.machine_template("workers", "tmpl", {"role": "worker"}),
    ]
    assert addresses(assert_released(run(objs))) == [V4]


def test_hosts_sharing_a_pool_get_distinct_addresses() -> None:
    hosts = [objects.host(f"host-{i}") for i in range(3)]
    result = run(world(objects.IPV4, *hosts))
    ips = {addresses(assert_released(result, f"host-{i}"))[0][1] for i in range(3)}
    assert ips == {"192.168.10.10", "192.168.10.11", "192.168.10.12"}


HOSTILE = [
    pytest.param(Delivery(duplicate=True), id="duplicated"),
    pytest.param(Delivery(reverse=True), id="reversed"),
    pytest.param(Delivery(replay=True), id="replayed-stale"),
    pytest.param(Delivery(duplicate=True, reverse=True, replay=True, structured=True), id="all"),
]


@pytest.mark.parametrize("delivery", HOSTILE)
@pytest.mark.parametrize(
    "template",
    [
        pytest.param(objects.DUAL, id="dual-stack"),
        pytest.param(objects.NO_POOLS, id="no-pools"),
    ],
)
def test_hostile_delivery_reaches_the_same_state(
    template: dict[str, Any], delivery: Delivery
) -> None:
    hosts = [objects.host(f"host-{i}") for i in range(2)]
    calm, hostile = run(world(template, *hosts)), run(world(template, *hosts), delivery)
    for i in range(2):
        assert assert_released(hostile, f"host-{i}") == assert_released(calm, f"host-{i}")
        assert _settled(hostile, f"host-{i}") == _settled(calm, f"host-{i}")
    assert sum(hostile.invocations.values()) >= sum(calm.invocations.values())


def _settled(result: ChainResult, host: str) -> dict[str, str]:
    """A host's annotations, the release time (present, but run-dependent) blanked."""
    annotations = dict(result.hosts[host].annotations)
    assert annotations.pop(keys.RELEASED_AT_ANNOTATION, "").endswith("Z")
    return annotations


RESPONSIBLE = {
    "host-registration": {("create", "ipclaims"), ("create", "events")},
    "ipclaim-fulfilment": {
        ("create", "secrets"),
        ("patch", "baremetalhosts"),
        ("create", "events"),
    },
    "secret-readiness": {("patch", "baremetalhosts"), ("create", "events")},
}
"""The Secret's writer releases its host; secret-readiness serves Secrets written by others
(README "Performance"), so here it may write nothing."""


def test_each_function_writes_only_its_own_objects() -> None:
    with harness.running() as sandbox:
        assert_released(scenario.run_chain(sandbox, world(objects.DUAL), harness.IDENTITIES))
        for function, allowed in RESPONSIBLE.items():
            done = {(r.verb, r.resource) for r in harness.writes(sandbox, function)}
            assert done == allowed or function == "secret-readiness", function
            assert done <= allowed, function


def test_secret_data_never_reaches_the_logs(caplog: pytest.LogCaptureFixture) -> None:
    with (
        caplog.at_level(logging.DEBUG, logger="dhcpless"),
        caplog.at_level(logging.DEBUG, logger="functions"),
    ):
        result = run(world(objects.DUAL))
    document = assert_released(result)
    text = caplog.text
    assert "host-0" in text  # decisions are logged, naming the host
    assert json.dumps(document, sort_keys=True) not in text
    assert "ip_address" not in text and "192.168.10.10" not in text


def test_exhausted_pool_leaves_the_late_host_paused_with_a_warning() -> None:
    tiny = objects.pool("pool4", "192.168.10.10", "192.168.10.10", 24, "192.168.10.1", [])
    objs = [tiny, objects.data_template(objects.IPV4), objects.host("host-0")]
    with harness.running() as sandbox:
        scenario.run_chain(sandbox, objs, harness.IDENTITIES)
        result = scenario.run_chain(sandbox, [objects.host("host-1")], harness.IDENTITIES)
        with sandbox.api_client() as api:
            warnings = [e for e in harness.host_events(api, "host-1") if e[0] == "Warning"]
    assert keys.PAUSED_ANNOTATION not in result.hosts["host-0"].annotations
    assert result.hosts["host-1"].annotations[keys.PAUSED_ANNOTATION] == keys.PREPROVISIONING_PAUSE
    assert "host-1" + keys.SECRET_NAME_SUFFIX not in result.secrets
    assert [(reason, "Exhausted IP Pools" in message) for _, reason, message in warnings] == [
        ("ClaimFailed", True)
    ]
