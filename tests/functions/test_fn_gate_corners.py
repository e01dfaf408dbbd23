"""The gate's corner values get a Warning (issue 24, finding 8), posted real host CloudEvents.

A pause value that is empty or ours but for spaces or letter case pauses the host for nobody;
a `spec.preprovisioningNetworkDataName` that cannot name a Secret was answered 400 with no
Event. Each gets one Warning saying what to write (`chain.decide.corner`); anyone else's pause
gets none, and nothing is written but the Event.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from dhcpless import keys
from dhcpless.keys import EventType
from dhcpless_sandbox.apiserver.server import SandboxServer
from tests.scenarios import steps
from tests.support import harness, objects

FN = "host-registration"


@pytest.fixture
def world() -> Iterator[SandboxServer]:
    with harness.running() as sandbox:
        for obj in (objects.POOL4, objects.data_template(objects.IPV4)):
            harness.put(sandbox, obj)
        yield sandbox


@pytest.mark.parametrize(
    ("host", "expected"),
    [
        pytest.param(objects.host(pause=""), ["PauseNotOurs"], id="empty-pause"),
        pytest.param(objects.host(pause="  "), ["PauseNotOurs"], id="blank-pause"),
        pytest.param(objects.host(pause=" metal3.io/preprovisioning"), ["PauseNotOurs"],
                     id="ours-with-a-space"),
        pytest.param(objects.host(pause="Metal3.io/Preprovisioning"), ["PauseNotOurs"],
                     id="ours-in-other-case"),
        pytest.param(objects.host(pause=keys.CAPM3_PAUSE), [], id="capm3-pause-not-ours-to-say"),
        pytest.param(objects.host(data_name=" "), ["SecretUnusable"], id="blank-secret-name"),
        pytest.param(objects.host(data_name="Not_A_Name"), ["SecretUnusable"],
                     id="secret-name-no-object-can-have"),
    ],
)  # fmt: skip
def test_corner_values_are_warned_about(
    world: SandboxServer, host: dict[str, Any], expected: list[str]
) -> None:
    stored = harness.put(world, host)
    world.reset_audit()
    assert steps.fire(world, FN, stored, EventType.RESOURCE_ADD) == 204
    assert [r for r, _ in steps.warnings(world, "host-0")] == expected
    writes = {(w.verb, w.resource) for w in harness.writes(world, FN)}
    assert writes == ({("create", "events")} if expected else set())
    assert steps.fresh(world, "BareMetalHost", "host-0")["metadata"]["annotations"].get(
        keys.PAUSED_ANNOTATION
    ) == host["metadata"]["annotations"].get(keys.PAUSED_ANNOTATION)  # never removed
