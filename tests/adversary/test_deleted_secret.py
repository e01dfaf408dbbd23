"""Issue 24, finding 6: our Secret deleted right after the host was released.

The tenant may delete Secrets (`tenant.DELETE_SECRETS`). The host keeps using its Secret (BMO
reads it in every registered state), so BMO stays in `registering` with `failed to fetch
secret`, and nothing of ours said a word until `HostHangs` 15 minutes later: the Secret source
sends no event for our own Secrets. Now BMO's registration error on the host makes
host-registration (and resync, on a tick) look: the Secret is written again from the host's
own claims, with the same data, and a `SecretRestored` Event (`chain.decide.repair`).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from kubernetes import client as k8s

from dhcpless import keys
from dhcpless.keys import EventType, ProvisioningState
from dhcpless.models import Secret
from dhcpless_sandbox.apiserver.server import SandboxServer
from dhcpless_sandbox.standins.bmh_status import host_status, missing_secret_message
from tests.adversary import tenant
from tests.scenarios import steps
from tests.support import harness, objects

NAME = "host-0" + keys.SECRET_NAME_SUFFIX


@pytest.fixture
def world() -> Iterator[SandboxServer]:
    """host-0 released with its Secret."""
    with harness.running() as sandbox:
        for obj in (objects.POOL4, objects.data_template(objects.IPV4)):
            harness.put(sandbox, obj)
        steps.register(sandbox, objects.host())
        assert (
            steps.fire(sandbox, "ipclaim-fulfilment", steps.fulfil(sandbox, "host-0-pool4")) == 204
        )
        assert not steps.paused(sandbox, "host-0")
        yield sandbox


def _network_data(world: SandboxServer) -> str | None:
    found = harness.get(world, "Secret", NAME)
    return None if found is None else Secret.model_validate(found).decoded(keys.NETWORK_DATA_KEY)


def _bmo_cannot_register(world: SandboxServer) -> None:
    """What BMO writes when the Secret it must read is gone (v0.14's registration error)."""
    status = host_status(ProvisioningState.REGISTERING, missing_secret_message(NAME, objects.NS), 1)
    with world.api_client() as api:
        k8s.CustomObjectsApi(api).patch_namespaced_custom_object_status(
            keys.BMO_GROUP, keys.BMO_VERSION, objects.NS, "baremetalhosts", "host-0",
            {"status": status},
        )  # fmt: skip


@pytest.mark.parametrize("who", [pytest.param("host-registration"), pytest.param("resync")])
def test_our_deleted_secret_is_written_again_with_the_same_data(
    world: SandboxServer, who: str
) -> None:
    before = _network_data(world)
    assert before
    with tenant.acting(world, tenant.DELETE_SECRETS) as attacker:
        attacker.delete_secret(NAME)
    _bmo_cannot_register(world)
    host = steps.fresh(world, "BareMetalHost", "host-0")
    if who == "resync":
        assert steps.ping(world) == 204
    else:
        assert steps.fire(world, who, host, EventType.RESOURCE_UPDATE) == 204
    assert _network_data(world) == before
    restored = steps.fresh(world, "Secret", NAME)
    assert [o["uid"] for o in restored["metadata"]["ownerReferences"]] == [host["metadata"]["uid"]]
    with world.api_client() as api:
        reasons = [e[1] for e in harness.host_events(api, "host-0")]
    assert reasons.count("SecretRestored") == 1
    assert not steps.paused(world, "host-0")


def test_a_secret_still_there_is_left_alone(world: SandboxServer) -> None:
    """A registration error with the Secret present (Ironic's, say) writes nothing."""
    before = steps.fresh(world, "Secret", NAME)
    _bmo_cannot_register(world)
    host = steps.fresh(world, "BareMetalHost", "host-0")
    world.reset_audit()
    assert steps.fire(world, "host-registration", host, EventType.RESOURCE_UPDATE) == 204
    assert steps.fresh(world, "Secret", NAME) == before
    writes = harness.writes(world, "host-registration")
    assert [(w.verb, w.resource) for w in writes] == []
