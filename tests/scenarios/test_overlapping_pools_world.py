"""Pools of two served namespaces that cover one range, in the whole world, fault-free and
under chaos (issue 24, item 2).

The cluster-wide layout (`WorldSettings.namespace_selector`: the sources watch every
namespace, resync lists the selected ones). The scenario namespace's hosts are served from the
demo pool (192.168.111.20-254). A tenant who may create IPPools in its own namespace
(`tenant.CREATE_POOLS` in `site-b`) makes one that covers part of that range; `site-c`, served
too, has a disjoint one. Sites reuse ranges on separate networks, so nothing is refused: resync
posts one `PoolsOverlap` Warning on each pool of the pair, naming the shared range, and none on
`site-c`'s. The hosts keep their addresses; the judges end at 0.
"""

from __future__ import annotations

import pytest

from dhcpless.keys import ProvisioningState
from dhcpless.reasons import Reason
from dhcpless_sandbox.demo.inventory import POOL
from tests.adversary import tenant
from tests.scenarios import tenant_steps as steps
from tests.scenarios.world_run import NS, Obj, judged, objects, scenario_world
from tests.support import objects as fixtures
from tests.support.waits import eventually

pytestmark = pytest.mark.slow
MODES = [pytest.param(False, id="fault-free"), pytest.param(True, id="chaos")]
LABEL, HOSTS = "dhcpless.metal3.io/hosts", ("host-000", "host-001")
SHARED = "192.168.111.200-192.168.111.254"


def _pool(namespace: str, name: str, start: str, end: str) -> Obj:
    pool = fixtures.pool(name, start, end, 24, start.rsplit(".", 1)[0] + ".1", [])
    return steps.in_namespace(pool, namespace)


@pytest.mark.parametrize("chaotic", MODES)
def test_a_tenants_pool_overlapping_ours_is_a_warning_on_both(chaotic: bool) -> None:
    with scenario_world(chaotic, namespace_selector=f"{LABEL}=enabled") as run:
        for namespace in (NS, "site-b", "site-c"):
            steps.namespace(run, namespace, {LABEL: "enabled"})
        run.create([*objects(2), _pool("site-c", "prov", "10.1.0.10", "10.1.0.20")])
        run.reach(list(HOSTS), ProvisioningState.AVAILABLE)
        addresses = {h: run.address(h) for h in HOSTS}
        with steps.acting(run, tenant.CREATE_POOLS, namespace="site-b") as attacker:
            attacker.create(_pool("site-b", "mine", "192.168.111.200", "192.168.111.254"))

        def warned() -> list[tuple[str, str]]:
            said = [(name, e) for name in (POOL, "mine", "prov")
                    for e in steps.events(run, name, Reason.POOLS_OVERLAP, "IPPool")]  # fmt: skip
            return sorted((e["namespace"], name) for name, e in said if SHARED in e["message"])

        eventually(lambda: len(warned()) == 2, 60, "a PoolsOverlap Warning on each pool")
        assert warned() == [(NS, POOL), ("site-b", "mine")]
        said = steps.events(run, "prov", Reason.POOLS_OVERLAP, "IPPool")
        assert [e for e in said if e["namespace"] == "site-c"] == []
        assert all(e["type"] == "Warning" for e in steps.events(run, "mine", Reason.POOLS_OVERLAP,
                                                                "IPPool"))  # fmt: skip
        assert run.ipam.get("ippools", "site-b", "mine") is not None  # not refused
        assert {h: run.address(h) for h in HOSTS} == addresses
        assert all(run.wire_of(h) == (addresses[h],) for h in HOSTS)
        run.past_the_stall_bound()
    judged(run)
