"""secret-readiness, posted real Secret CloudEvents (Reference mode), sandbox API behind it.

Covers: a Secret under our default name releases nothing from its own event, even one holding
the render (binary and structured, add and update): it keeps the host paused with one
SecretUnverified Warning (`chain.decide.verify`; the forgeries are in `tests/adversary`); a
user-named Secret releases the host naming it in one patch (name kept, our pause removed, the
release time stamped); a user's Secret breaking a pre-unpause rule (table: issue 4's foreign
boot MAC, MAC form, dangling link, off-link gateway) gets one SecretUnusable wording whatever
the cause (issue 14, finding 4); nothing is written but that Event; Secrets without networkData
or already gone cost no write; a host someone re-paused or renamed meanwhile is left alone;
the release patch's test ops refuse a stale decision (503, host untouched), so no concurrent
write is ever overwritten.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from dhcpless import keys, render
from dhcpless.chain import patches
from dhcpless.chain.actions import ReleaseHost
from dhcpless.keys import EventType
from dhcpless.kube import Kube, PreconditionFailed
from dhcpless.models import BareMetalHost, Secret, network_template_from_k8s
from dhcpless.refs import HostRef
from dhcpless_sandbox.apiserver.server import SandboxServer
from tests.support import harness, objects

FN = "secret-readiness"
OURS = "host-0" + keys.SECRET_NAME_SUFFIX
VALID = objects.VALID_NETWORK_DATA


@pytest.fixture
def world() -> Iterator[SandboxServer]:
    with harness.running() as sandbox:
        yield sandbox


def secret(
    name: str, text: str | None, ours: bool = True, owner: dict[str, Any] | None = None
) -> dict[str, Any]:
    """`owner`: the stored host whose UID makes the Secret ours (`chain.identity`)."""
    labels = (
        {keys.HOST_LABEL: "host-0", keys.MANAGED_BY_LABEL: keys.MANAGED_BY_VALUE} if ours else {}
    )
    data = {} if text is None else {keys.NETWORK_DATA_KEY: Secret.encode(text)}
    meta: dict[str, Any] = {"name": name, "namespace": objects.NS, "labels": labels}
    if ours and owner is not None:
        meta["ownerReferences"] = [
            {
                "apiVersion": owner["apiVersion"],
                "kind": owner["kind"],
                "name": owner["metadata"]["name"],
                "uid": owner["metadata"]["uid"],
            }
        ]
    return {"apiVersion": "v1", "kind": "Secret", "metadata": meta, "data": data}


def post(sandbox: SandboxServer, obj: dict[str, Any], **kwargs: Any) -> tuple[int, str]:
    event_type = kwargs.pop("type", EventType.RESOURCE_ADD)
    return harness.deliver(harness.client(sandbox, FN), event_type, obj, **kwargs)


def host(sandbox: SandboxServer) -> BareMetalHost:
    raw = harness.get(sandbox, "BareMetalHost", "host-0")
    assert raw is not None
    return BareMetalHost.from_k8s(raw)


@pytest.mark.parametrize(
    "structured", [pytest.param(False, id="binary"), pytest.param(True, id="structured")]
)
@pytest.mark.parametrize("event_type", [EventType.RESOURCE_ADD, EventType.RESOURCE_UPDATE])
def test_a_secret_under_our_name_is_never_released_from_its_own_event(
    world: SandboxServer, structured: bool, event_type: EventType
) -> None:
    """Even holding exactly what the host's template renders: on its own event the Secret
    cannot be told from a forgery (our labels and the host's UID are readable by anyone), so
    it releases nothing; one Warning says so, and the claims' path verifies it."""
    owner = harness.put(world, objects.host())
    stored = harness.put(world, secret(OURS, rendered(world, owner), owner=owner))
    assert post(world, stored, type=event_type, structured=structured) == (204, "")
    assert host(world).annotations[keys.PAUSED_ANNOTATION] == keys.PREPROVISIONING_PAUSE
    assert [(r.verb, r.resource) for r in harness.writes(world, FN)] == [("create", "events")]
    with world.api_client() as api:
        assert [e[:2] for e in harness.host_events(api, "host-0")] == [
            ("Warning", "SecretUnverified")
        ]


def test_user_named_secret_releases_the_host_naming_it(world: SandboxServer) -> None:
    harness.put(world, objects.host(data_name="mine"))
    stored = harness.put(world, secret("mine", VALID, ours=False))
    assert post(world, stored) == (204, "")
    released = host(world)
    assert keys.PAUSED_ANNOTATION not in released.annotations
    assert released.spec.preprovisioning_network_data_name == "mine"


@pytest.mark.parametrize(
    ("host_obj", "secret_obj"),
    [
        pytest.param(objects.host(pause=keys.CAPM3_PAUSE), secret(OURS, VALID), id="capm3-paused"),
        pytest.param(objects.host(data_name="elsewhere"), secret(OURS, VALID), id="named-another"),
        pytest.param(objects.host(), secret("unrelated", VALID, ours=False), id="unrelated-secret"),
        pytest.param(objects.host(), secret(OURS, None), id="no-network-data"),
    ],
)
def test_hosts_it_must_not_touch(
    world: SandboxServer, host_obj: dict[str, Any], secret_obj: dict[str, Any]
) -> None:
    before = harness.put(world, host_obj)
    assert post(world, harness.put(world, secret_obj)) == (204, "")
    assert harness.get(world, "BareMetalHost", "host-0") == before
    assert harness.writes(world, FN) == []


def rendered(world: SandboxServer, owner: dict[str, Any]) -> str:
    """Put the host's template (no pools: rendered from the host alone) and return the network
    data the chain renders for it: what a Secret of ours must hold to release the host."""
    template = harness.put(world, objects.data_template(objects.NO_POOLS))
    network_data = network_template_from_k8s(template).network_data
    document = render.render_network_data(network_data, BareMetalHost.from_k8s(owner), {})
    assert document is not None
    return json.dumps(document)


def test_invalid_data_keeps_the_host_paused(world: SandboxServer) -> None:
    """Data of ours that cannot be checked (no template renders it) releases nothing; the
    Warning never quotes the data."""
    owner = harness.put(world, objects.host())
    assert post(world, harness.put(world, secret(OURS, "links: 3", owner=owner))) == (204, "")
    assert host(world).annotations[keys.PAUSED_ANNOTATION] == keys.PREPROVISIONING_PAUSE
    with world.api_client() as api:
        ((kind, reason, message),) = harness.host_events(api, "host-0")
    assert (kind, reason) == ("Warning", "SecretUnverified") and "links: 3" not in message


def test_secret_gone_is_204(world: SandboxServer) -> None:
    harness.put(world, objects.host())
    assert post(world, secret(OURS, VALID)) == (204, "")
    assert harness.writes(world, FN) == []


@pytest.mark.parametrize(
    ("change", "set_name"),
    [
        pytest.param(
            [{"op": "add", "path": "/metadata/labels/x", "value": "y"}], True, id="host-changed"
        ),
        pytest.param(
            [{"op": "replace", "path": harness.PAUSE_PATH, "value": keys.CAPM3_PAUSE}],
            False,
            id="re-paused",
        ),
        pytest.param(
            [{"op": "add", "path": "/spec/preprovisioningNetworkDataName", "value": "theirs"}],
            False,
            id="renamed",
        ),
    ],
)
def test_release_refuses_a_stale_decision(
    world: SandboxServer, change: list[dict[str, Any]], set_name: bool
) -> None:
    name = OURS if set_name else "mine"
    stale = BareMetalHost.from_k8s(
        harness.put(world, objects.host(data_name="" if set_name else "mine"))
    )
    with world.api_client() as api:
        harness.patch_host(api, "host-0", change)
        changed = harness.get(world, "BareMetalHost", "host-0")
        release = ReleaseHost(
            HostRef.of(stale), name, set_name, stale.metadata.resource_version or ""
        )
        with pytest.raises(PreconditionFailed):
            Kube(api).patch_host(objects.NS, "host-0", patches.release_patch(release))
    assert harness.get(world, "BareMetalHost", "host-0") == changed


def _doc(mac: str = objects.MAC, network: dict[str, Any] | None = None) -> str:
    link = {"id": "eth0", "type": "phy", "ethernet_mac_address": mac}
    net = network or {"id": "n4", "type": "ipv4_dhcp", "link": "eth0", "network_id": "n4"}
    return json.dumps({"links": [link], "networks": [net], "services": []})


OFF_LINK = {
    "id": "n4",
    "network_id": "n4",
    "type": "ipv4",
    "link": "eth0",
    "ip_address": "10.0.0.10",
    "netmask": "255.255.255.0",
    "routes": [{"network": "0.0.0.0", "netmask": "0.0.0.0", "gateway": "10.0.1.1"}],
}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(_doc(), None, id="pass: DHCP-only data on the boot NIC"),
        pytest.param(
            _doc(network={"id": "n4", "type": "ipv4_dhcp", "link": "eth0"}),
            "ironic: failed (ironic-network-id) at networks[0].network_id",
            id="fail (issue 11): no network_id, Ironic would refuse it",
        ),
        pytest.param(
            _doc(mac="52:54:00:aa:bb:99"),
            "boot-mac: failed at links",
            id="fail (issue 4): no link has the boot MAC",
        ),
        pytest.param(
            _doc(mac="52:54:00:AA:BB:01".replace(":", "-")),
            "link-mac: failed at links[0].ethernet_mac_address",
            id="fail: dash-separated MAC",
        ),
        pytest.param(
            _doc(network={**OFF_LINK, "link": "eth9"}),
            "link-reference: failed at networks[0].link",
            id="fail: network on a missing link",
        ),
        pytest.param(
            _doc(network=OFF_LINK),
            "route: failed at networks[0].routes[0]",
            id="fail: gateway off-link",
        ),
    ],
)
def test_release_validates_the_secret(
    world: SandboxServer, text: str, expected: str | None
) -> None:
    """A Secret the host names (a user's: not verified against claims, it has none) is
    released only when it passes every pre-unpause rule; else one SecretUnusable wording
    whatever the cause (issue 14, finding 4). Our own Secrets are verified against the
    render instead (`test_invalid_data_keeps_the_host_paused`, `tests/adversary`)."""
    before = harness.put(world, objects.host(data_name="mine"))
    assert post(world, harness.put(world, secret("mine", text, False, before))) == (204, "")
    with world.api_client() as api:
        events = harness.host_events(api, "host-0")
    if expected is None:
        released = host(world)
        assert keys.PAUSED_ANNOTATION not in released.annotations
        assert released.annotations[keys.RELEASED_AT_ANNOTATION].endswith("Z")
        return
    assert harness.get(world, "BareMetalHost", "host-0") == before
    assert {(r.verb, r.resource) for r in harness.writes(world, FN)} == {("create", "events")}
    assert [(kind, reason) for kind, reason, _ in events] == [("Warning", "SecretUnusable")]
    assert all(expected not in m for _, _, m in events)  # the cause is not said


def test_release_keeps_a_label_added_meanwhile(world: SandboxServer) -> None:
    """Issue 14, finding 6: a host without labels got the done label as a whole new
    `metadata.labels` map, dropping a label added since we read it. The release writes no
    label now: it succeeds and the user's label stays."""
    stale = BareMetalHost.from_k8s(harness.put(world, objects.host(data_name="mine")))
    assert not stale.labels
    with world.api_client() as api:
        harness.patch_host(api, "host-0", [{"op": "add", "path": "/metadata/labels",
                                            "value": {"team": "a"}}])  # fmt: skip
        release = ReleaseHost(
            HostRef.of(stale), "mine", False, stale.metadata.resource_version or ""
        )
        Kube(api).patch_host(objects.NS, "host-0", patches.release_patch(release))
    assert host(world).labels == {"team": "a"}
    assert keys.PAUSED_ANNOTATION not in host(world).annotations
