"""The lend to CAPM3 follows the Metal3Data's own event (eventing/components/capm3), not resync.

CAPM3 sets the host's consumerRef first and creates the Metal3Data after (cluster-api-provider-
metal3 `baremetal/metal3machine_manager.go` `Associate`, then `AssociateM3Metadata`), so the
host's own event finds no Metal3Data to lend to. With resync effectively off (one tick an
hour), a Metal3Data created after host-registration has handled the consumerRef is lent our
claim from its own event, through the world's Metal3Data source (`sandbox.wiring`).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from dhcpless import keys
from dhcpless.keys import FunctionName
from dhcpless_sandbox.controllers.custom_objects import CustomObjects
from dhcpless_sandbox.demo.inventory import POOL, create, inventory
from dhcpless_sandbox.runtime.world import World
from dhcpless_sandbox.runtime.world_settings import WorldSettings
from tests.support.waits import eventually

NS, HOST = "demo", "host-000"
CAPM3 = f"{keys.CAPM3_GROUP}/{keys.CAPM3_VERSION}"


@pytest.fixture
def world() -> Iterator[World]:
    started = World(WorldSettings(resync_seconds=3600.0, idle_seconds=0.5))
    started.start()
    yield started
    started.stop()


def _looked_for_metal3data(world: World) -> bool:
    """host-registration handled the consumerRef: it listed the Metal3Data (none yet; no
    stand-in runs here that would list them)."""
    return any((r.verb, r.resource) == ("list", "metal3datas") for r in world.sandbox.audit.records)


@pytest.mark.e2e
def test_the_claim_is_lent_from_the_metal3data_event(world: World) -> None:
    api = world.api_client()
    hosts = CustomObjects(api, keys.BMO_GROUP, keys.BMO_VERSION)
    ipam = CustomObjects(api, keys.IPAM_GROUP, keys.IPAM_VERSION)
    create(api, inventory(1, NS))

    def available() -> bool:
        host = hosts.get("baremetalhosts", NS, HOST) or {}
        state = (host.get("status") or {}).get("provisioning", {}).get("state")
        return bool(state == "available")

    assert eventually(available, timeout=60)
    consumer = {"apiVersion": CAPM3, "kind": "Metal3Machine", "name": f"{HOST}-m3m",
                "namespace": NS}  # fmt: skip
    hosts.patch("baremetalhosts", NS, HOST, {"spec": {"consumerRef": consumer}})
    assert eventually(lambda: _looked_for_metal3data(world), timeout=60)
    spec = {"claim": {"name": f"{HOST}-m3m"}, "template": {"name": "provisioning"}}
    meta = {"name": f"{HOST}-data", "namespace": NS}
    data = {"apiVersion": CAPM3, "kind": "Metal3Data", "metadata": meta, "spec": spec}
    CustomObjects(api, keys.CAPM3_GROUP, keys.CAPM3_VERSION).create("metal3datas", NS, data)

    def owners() -> list[str]:
        claim = ipam.get("ipclaims", NS, f"{HOST}-{POOL}") or {"metadata": {}}
        return [o["kind"] for o in claim["metadata"].get("ownerReferences") or []]

    assert eventually(lambda: owners() == ["BareMetalHost", "Metal3Data"], timeout=30)
    assert world.counters().invocations.get(FunctionName.RESYNC.value, 0) == 0
