"""Finding 6 of issue 12: the Secret is rendered from the template that applies *now*.

host-registration records the template on each claim; between claiming and the last address
the user may relabel the host (another Metal3MachineTemplate selects it) or add a second
machine template that makes the choice ambiguous. The render must follow the current answer:
the new template's data, or no release and the ambiguity Warning.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator

import pytest

from dhcpless import keys
from dhcpless_sandbox.apiserver.server import SandboxServer
from tests.scenarios import steps
from tests.support import harness, objects

SECRET = "host-0" + keys.SECRET_NAME_SUFFIX


@pytest.fixture
def world() -> Iterator[SandboxServer]:
    """Two templates on pool4 told apart by their DNS server; mt-a selects `rack: a`."""
    with harness.running() as sandbox:
        harness.put(sandbox, objects.POOL4)
        harness.put(sandbox, steps.template_with_dns("ta", "1.1.1.1"))
        harness.put(sandbox, steps.template_with_dns("tb", "2.2.2.2"))
        harness.put(sandbox, objects.machine_template("mt-a", "ta", {"rack": "a"}))
        harness.put(sandbox, objects.machine_template("mt-b", "tb", {"rack": "b"}))
        yield sandbox


def _dns(world: SandboxServer) -> list[str]:
    raw = steps.fresh(world, "Secret", SECRET)
    document = json.loads(base64.b64decode(raw["data"][keys.NETWORK_DATA_KEY]))
    return [s["address"] for s in document["services"] if s["type"] == "dns"]


def test_relabelled_host_renders_from_the_template_that_selects_it_now(
    world: SandboxServer,
) -> None:
    steps.register(world, objects.host(template=None, labels={"rack": "a"}))
    with world.api_client() as api:
        harness.patch_host(api, "host-0", [{"op": "replace", "path": "/metadata/labels/rack",
                                            "value": "b"}])  # fmt: skip
    claim = steps.fulfil(world, "host-0-pool4")
    assert steps.fire(world, "ipclaim-fulfilment", claim) == 204
    assert _dns(world) == ["2.2.2.2"]


def test_a_template_made_ambiguous_meanwhile_holds_the_host(world: SandboxServer) -> None:
    steps.register(world, objects.host(template=None, labels={"rack": "a", "row": "1"}))
    harness.put(world, objects.machine_template("mt-row", "tb", {"row": "1"}))
    claim = steps.fulfil(world, "host-0-pool4")
    assert steps.fire(world, "ipclaim-fulfilment", claim) == 204
    assert harness.get(world, "Secret", SECRET) is None
    assert steps.paused(world, "host-0")
    assert any(r == "AmbiguousTemplate" for r, _ in steps.warnings(world, "host-0"))
