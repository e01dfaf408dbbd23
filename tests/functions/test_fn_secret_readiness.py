"""secret-readiness, posted real Secret CloudEvents (Reference mode), sandbox API behind it.

Covers: our valid Secret releases its host in one patch (name set, our pause removed; binary
and structured, add and update); a user-named Secret releases the host naming it; invalid data
keeps the host paused with a Warning; Secrets without networkData or already gone cost no
write; a host someone re-paused or renamed meanwhile is left alone; the release patch's test
ops refuse a stale decision (503, host untouched), so no concurrent write is ever overwritten.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from dhcpless import keys
from dhcpless.chain import act
from dhcpless.chain.actions import ReleaseHost
from dhcpless.keys import EventType
from dhcpless.kube import Kube, PreconditionFailed
from dhcpless.kube.refs import HostRef
from dhcpless.models import BareMetalHost, Secret
from dhcpless.sandbox.apiserver.server import SandboxServer

from tests.e2e import harness, objects

FN = "secret-readiness"
OURS = "host-0" + keys.SECRET_NAME_SUFFIX
VALID = '{"links": [{"id": "eth0", "type": "phy"}], "networks": [], "services": []}'


@pytest.fixture
def world() -> Iterator[SandboxServer]:
    with harness.running() as sandbox:
        yield sandbox


def secret(name: str, text: str | None, ours: bool = True) -> dict[str, Any]:
    labels = (
        {keys.HOST_LABEL: "host-0", keys.MANAGED_BY_LABEL: keys.MANAGED_BY_VALUE} if ours else {}
    )
    data = {} if text is None else {keys.NETWORK_DATA_KEY: Secret.encode(text)}
    meta = {"name": name, "namespace": objects.NS, "labels": labels}
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
def test_our_valid_secret_releases_the_host(
    world: SandboxServer, structured: bool, event_type: EventType
) -> None:
    harness.put(world, objects.host())
    stored = harness.put(world, secret(OURS, VALID))
    assert post(world, stored, type=event_type, structured=structured) == (204, "")
    released = host(world)
    assert keys.PAUSED_ANNOTATION not in released.annotations
    assert released.spec.preprovisioning_network_data_name == OURS
    assert [(r.verb, r.resource) for r in harness.writes(world, FN)] == [
        ("patch", "baremetalhosts"),
        ("create", "events"),
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


def test_invalid_data_keeps_the_host_paused(world: SandboxServer) -> None:
    harness.put(world, objects.host())
    assert post(world, harness.put(world, secret(OURS, "links: 3"))) == (204, "")
    assert host(world).annotations[keys.PAUSED_ANNOTATION] == keys.PREPROVISIONING_PAUSE
    with world.api_client() as api:
        ((kind, reason, message),) = harness.host_events(api, "host-0")
    assert (kind, reason) == ("Warning", "SecretInvalid") and "links: 3" not in message


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
            Kube(api).patch_host(objects.NS, "host-0", act.release_patch(release))
    assert harness.get(world, "BareMetalHost", "host-0") == changed
