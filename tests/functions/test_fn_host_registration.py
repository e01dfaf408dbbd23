"""host-registration, posted real CloudEvents, with the sandbox API behind it.

Covers: claims created (binary and structured, add and update) with labels, owner reference
and spec; duplicates change nothing; template problems (missing, ambiguous, invalid annotation)
leave the host paused with a Warning Event naming the cause; irrelevant hosts (not paused,
foreign pause values) cost no API call at all; the static story (user-named Secret valid,
missing, empty); a host that is gone and a stale hint (204, nothing written); malformed events
(400, nothing written). Reference mode: tests/functions/test_edge_reference_mode.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from dhcpless import keys
from dhcpless.keys import EventType
from dhcpless.models import Secret
from dhcpless_sandbox.apiserver.server import SandboxServer
from tests.support import harness, objects

FN = "host-registration"


@pytest.fixture
def world() -> Iterator[SandboxServer]:
    with harness.running() as sandbox:
        harness.put(sandbox, objects.POOL4)
        harness.put(sandbox, objects.POOL6)
        harness.put(sandbox, objects.data_template(objects.DUAL))
        sandbox.reset_audit()
        yield sandbox


def post(sandbox: SandboxServer, host: dict[str, Any], **kwargs: Any) -> tuple[int, str]:
    return harness.deliver(
        harness.client(sandbox, FN), kwargs.pop("type", EventType.RESOURCE_ADD), host, **kwargs
    )


def reasons(sandbox: SandboxServer, host: str = "host-0") -> list[tuple[str, str]]:
    with sandbox.api_client() as api:
        return sorted((kind, reason) for kind, reason, _ in harness.host_events(api, host))


@pytest.mark.parametrize(
    "structured", [pytest.param(False, id="binary"), pytest.param(True, id="structured")]
)
@pytest.mark.parametrize("event_type", [EventType.RESOURCE_ADD, EventType.RESOURCE_UPDATE])
def test_paused_host_gets_one_claim_per_pool(
    world: SandboxServer, structured: bool, event_type: EventType
) -> None:
    host = harness.put(world, objects.host())
    assert post(world, host, type=event_type, structured=structured) == (204, "")
    for pool in ("pool4", "pool6"):
        claim = harness.get(world, "IPClaim", f"host-0-{pool}")
        assert claim is not None
        assert claim["spec"]["pool"]["name"] == pool
        assert claim["metadata"]["labels"][keys.HOST_LABEL] == "host-0"
        assert claim["metadata"]["labels"][keys.MANAGED_BY_LABEL] == keys.MANAGED_BY_VALUE
        assert [o["uid"] for o in claim["metadata"]["ownerReferences"]] == [host["metadata"]["uid"]]
    assert reasons(world) == [("Normal", "ClaimsCreated"), ("Normal", "TemplateChosen")]


def test_duplicates_change_nothing(world: SandboxServer) -> None:
    host = harness.put(world, objects.host())
    assert post(world, host) == (204, "")
    first = harness.get(world, "IPClaim", "host-0-pool4")
    events = reasons(world)
    assert post(world, host) == (204, "")
    assert harness.get(world, "IPClaim", "host-0-pool4") == first
    assert reasons(world) == events


@pytest.mark.parametrize(
    ("host", "extra", "reason", "mentions"),
    [
        pytest.param(
            objects.host(template="metal3datatemplates.infrastructure.cluster.x-k8s.io/missing"),
            [],
            "NoTemplate",
            "missing",
            id="template-missing",
        ),
        pytest.param(
            objects.host(template=None), [], "NoTemplate", "Metal3MachineTemplates", id="no-match"
        ),
        pytest.param(
            objects.host(template=None, labels={"role": "w"}),
            [
                objects.machine_template("a", "tmpl", {"role": "w"}),
                objects.machine_template("b", "other", {}),
            ],
            "AmbiguousTemplate",
            "a -> metal3/tmpl, b -> metal3/other",
            id="ambiguous",
        ),
        pytest.param(
            objects.host(template="configmaps/x"),
            [],
            "InvalidTemplate",
            "configmaps/x",
            id="bad-reference",
        ),
    ],
)
def test_template_problems_leave_host_paused_with_a_warning(
    world: SandboxServer,
    host: dict[str, Any],
    extra: list[dict[str, Any]],
    reason: str,
    mentions: str,
) -> None:
    for obj in extra:
        harness.put(world, obj)
    stored = harness.put(world, host)
    assert post(world, stored) == (204, "")
    with world.api_client() as api:
        (event,) = harness.host_events(api, "host-0")
    assert event[:2] == ("Warning", reason) and mentions in event[2]
    assert {r.resource for r in harness.writes(world, FN)} == {"events"}
    assert harness.get(world, "BareMetalHost", "host-0") == stored


@pytest.mark.parametrize(
    "host",
    [
        pytest.param(objects.host(pause=None, data_name="own"), id="not-paused-names-its-data"),
        pytest.param(
            objects.host(
                pause=None, labels={keys.PREPROVISIONING_SCOPE_LABEL: keys.SCOPE_DISABLED}
            ),
            id="not-paused-opted-out",
        ),
        pytest.param(objects.host(pause=keys.CAPM3_PAUSE), id="capm3-pause"),
        pytest.param(objects.host(pause="someone/else"), id="foreign-pause"),
    ],
)
def test_irrelevant_hosts_cost_nothing(world: SandboxServer, host: dict[str, Any]) -> None:
    stored = harness.put(world, host)
    world.reset_audit()
    assert post(world, stored) == (204, "")
    assert harness.audit_of(world, FN) == []


VALID = objects.VALID_NETWORK_DATA


def user_secret(text: str) -> dict[str, Any]:
    data = {keys.NETWORK_DATA_KEY: Secret.encode(text)}
    return {
        "apiVersion": "v1",
        "kind": "Secret",
        "metadata": {"name": "mine", "namespace": objects.NS},
        "data": data,
    }


NMSTATE = "interfaces: [{name: eth0, type: ethernet, state: up}]"


def nmstate_secret(text: str) -> dict[str, Any]:
    """A hand-written Secret claiming to hold nmstate under networkData: we cannot check that
    against the host, so it is refused (only Secrets we render may do it)."""
    obj = user_secret(text)
    fmt = keys.NetworkDataFormat.NMSTATE_IN_NETWORK_DATA.value
    obj["metadata"]["annotations"] = {keys.NETWORK_DATA_FORMAT_ANNOTATION: fmt}
    return obj


@pytest.mark.parametrize(
    ("secret", "paused", "reason"),
    [
        pytest.param(user_secret(VALID), False, ("Normal", "HostReleased"), id="valid"),
        pytest.param(None, True, ("Warning", "SecretUnusable"), id="missing"),
        pytest.param(user_secret(""), True, ("Warning", "SecretUnusable"), id="empty"),
        pytest.param(user_secret("{]"), True, ("Warning", "SecretUnusable"), id="garbage"),
        pytest.param(
            nmstate_secret(NMSTATE), True, ("Warning", "SecretUnusable"), id="nmstate-by-hand"
        ),
        pytest.param(
            nmstate_secret("links: []"), True, ("Warning", "SecretUnusable"), id="not-nmstate"
        ),
    ],
)
def test_user_named_secret(
    world: SandboxServer, secret: dict[str, Any] | None, paused: bool, reason: tuple[str, str]
) -> None:
    if secret is not None:
        harness.put(world, secret)
    stored = harness.put(world, objects.host(data_name="mine"))
    assert post(world, stored) == (204, "")
    current = harness.get(world, "BareMetalHost", "host-0")
    assert current is not None
    assert (keys.PAUSED_ANNOTATION in current["metadata"]["annotations"]) == paused
    assert current["spec"]["preprovisioningNetworkDataName"] == "mine"
    assert reasons(world) == [reason]


def test_host_gone_is_204_and_writes_nothing(world: SandboxServer) -> None:
    ghost = {**objects.host(), "metadata": {**objects.host()["metadata"], "uid": "u"}}
    assert post(world, ghost) == (204, "")
    assert harness.writes(world, FN) == []


def test_stale_hint_is_reread(world: SandboxServer) -> None:
    """The event says paused; the host as read is not: no claim. What is decided is what the
    host as read calls for (unpaused with no network data: the one slipped-through Warning)."""
    stale = harness.put(world, objects.host())
    with world.api_client() as api:
        harness.patch_host(api, "host-0", [{"op": "remove", "path": harness.PAUSE_PATH}])
    assert post(world, stale) == (204, "")
    assert [w.resource for w in harness.writes(world, FN)] == ["events"]
    assert reasons(world) == [("Warning", "RegisteredUnpaused")]


@pytest.mark.parametrize(
    ("event_type", "reason"),
    [
        pytest.param(EventType.RESOURCE_ADD, "no metadata", id="reference-as-resource"),
        pytest.param("com.example.other", "unknown event type", id="foreign-type"),
    ],
)
def test_wrong_events_are_400_and_write_nothing(
    world: SandboxServer, event_type: Any, reason: str
) -> None:
    host = harness.put(world, objects.host())
    reference = event_type in (EventType.REF_ADD, EventType.RESOURCE_ADD)
    status, body = harness.deliver_raw(harness.client(world, FN), event_type, host, reference)
    assert status == 400 and reason in body
    assert harness.audit_of(world, FN) == []
