"""Provision with CAPM3, then deprovision and clean, then delete: the host's whole life.

The CAPM3 stand-in plays Metal3Machine -> Metal3DataClaim -> Metal3Data -> claim lookup
(`<metal3data>-<pool>`, else `<bmh>-<pool>`, used only with the Metal3Data's UID among its
owners) -> rendered networkData -> BMH `spec.image`/`spec.networkData`; BMO deploys (deploy
ramdisk on the pre-provisioning Secret, fast track) and boots the deployed OS on CAPM3's data,
then cleans after deprovisioning. Fault-free and under chaos:

* every host reaches `provisioned` with the address it was inspected with, on every machine it
  ran (inspection ramdisk, deploy ramdisk, deployed OS, cleaning ramdisk);
* CAPM3 never made a claim of its own: it used ours, which carries its Metal3Data's UID
  (`addressFromM3Claim`'s test), and never waited for ever (its requeues are counted: how many
  depends on when it looks relative to our lending, so only the bound is asserted);
* deleting a host frees its address exactly once; every judge's counter is 0.
"""

from __future__ import annotations

import pytest

from dhcpless import keys
from dhcpless.keys import ProvisioningState
from dhcpless_sandbox.controllers.custom_objects import CustomObjects
from dhcpless_sandbox.demo.inventory import POOL
from dhcpless_sandbox.standins.capm3 import CAPM3Controller
from dhcpless_sandbox.standins.capm3_objects import owned_by
from tests.scenarios.world_run import NS, Run, judged, objects, scenario_world
from tests.support.waits import eventually

pytestmark = pytest.mark.slow
MODES = [pytest.param(False, id="fault-free"), pytest.param(True, id="chaos")]
NAMES = ["host-000", "host-001"]


def _machines(run: Run, host: str) -> dict[str, set[tuple[str, ...]]]:
    """Which addresses each kind of machine of `host` configured, over its whole life."""
    found: dict[str, set[tuple[str, ...]]] = {}
    for key, machine, addresses in list(run.world.bmo.boots):
        if key == (NS, host):
            found.setdefault(machine, set()).add(tuple(a.split("/")[0] for a in addresses))
    return found


def _lent_to_its_metal3data(run: Run, capm3_run: CAPM3Controller, host: str) -> bool:
    """The claim `<host>-<pool>` names the host's Metal3Data (by UID) among its owners: the
    claim CAPM3 deployed with is ours, lent (cluster-api-provider-metal3
    `baremetal/metal3data_manager.go` `addressFromM3Claim` uses a claim only then)."""
    capm3 = CustomObjects(run.api, keys.CAPM3_GROUP, keys.CAPM3_VERSION)
    data = capm3.get("metal3datas", NS, capm3_run.data_of[host])
    claim = run.ipam.get("ipclaims", NS, f"{host}-{POOL}")
    return data is not None and claim is not None and owned_by(claim, data["metadata"]["uid"])


@pytest.mark.parametrize("chaotic", MODES)
def test_provision_deprovision_clean_delete(chaotic: bool, request: pytest.FixtureRequest) -> None:
    with scenario_world(chaotic) as run:
        capm3 = CAPM3Controller(run.world.api_client(), [POOL])
        capm3.start()
        try:
            run.create(objects(2))
            run.reach(NAMES, ProvisioningState.PROVISIONED, 90)
            inspected = {n: run.address(n) for n in NAMES}
            assert all(run.owns_its_claim(n) for n in NAMES)
            assert {n: capm3.deployed[n][POOL] for n in NAMES} == inspected
            assert capm3.claimed == set()  # it borrowed ours, never made its own
            assert all(_lent_to_its_metal3data(run, capm3, n) for n in NAMES)
            capm3.deprovision(NS, "host-000", again=False)
            run.reach(["host-000"], ProvisioningState.AVAILABLE, 60)
        finally:
            capm3.stop()
        for name in NAMES:
            want = {(inspected[name],)}
            machines = _machines(run, name)
            assert {m: machines.get(m) for m in ("inspect", "deploy", "os")} == dict.fromkeys(
                ("inspect", "deploy", "os"), want
            )
        assert _machines(run, "host-000")["clean"] == {(inspected["host-000"],)}
        assert run.wire_of("host-000") == (inspected["host-000"],)  # the cleaning ramdisk
        run.hosts.delete("baremetalhosts", NS, "host-000")
        eventually(lambda: run.address("host-000") is None and run.host("host-000") is None, 30)
        addresses = [a["spec"]["address"] for a in run.ipam.list_items("ipaddresses", NS)]
        assert addresses.count(inspected["host-000"]) == 0
        assert addresses.count(inspected["host-001"]) == 1
    judged(run)
    # CAPM3 requeues only if it looks before our lending lands (timing): bound it, never ask for one
    assert max(capm3.requeues.values(), default=0) < 100  # not for ever
    print(f"\nCAPM3 requeues per Metal3Data ({request.node.callspec.id}): {dict(capm3.requeues)}")
