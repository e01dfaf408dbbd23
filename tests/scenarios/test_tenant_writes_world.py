"""A tenant's writes in the whole world, fault-free and under chaos (issue 24, items 3, 4, 6).

Each row is one attack by a namespace user with only the rights it names
(`tests.adversary.tenant`), made after host-000 was served, and the outcome a user needs:

* `injected-records` (item 4): the tenant annotates both hosts with `released-at` and a
  `claimed-pools` record naming another namespace's pool and a spare pool of ours. resync
  ticks on (every 0.5 s) and no IPClaim is created anywhere: the annotation is a hint, what a
  re-claim makes comes from the record on the host's own Secret (`chain.decide.reclaim`).
* `reclaim-while-another-registers` (item 3): the tenant deletes host-000's claim; IPAM
  frees its address (ip-address-manager `ipam/ippool_manager.go` `deleteAddress`); the
  re-claim asks for it back (`ipAddress`) and host-001 registers while it waits. host-000
  keeps its address, host-001 gets another, and nobody is told `AddressNotRestored`.
* `secret-deleted-after-release` (item 6): the tenant deletes host-000's Secret as soon as
  the pause is gone. BMO cannot read it (`failed to fetch secret`), and we write it again
  with the same data and a `SecretRestored` Event; the host reaches `available`.

The judges end at 0: no address on two machines (`duplicate_on_wire`), no host waiting
without a Warning (`silent_stalls`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from kubernetes import client

from dhcpless import keys
from dhcpless.keys import ProvisioningState
from dhcpless.models import Secret
from dhcpless.reasons import Reason
from dhcpless_sandbox.apiserver.rbac import SERVICE_ACCOUNT_PREFIX
from dhcpless_sandbox.apiserver.request import RequestInfo
from dhcpless_sandbox.apiserver.status import ApiError
from dhcpless_sandbox.demo.inventory import POOL
from tests.adversary import tenant
from tests.scenarios import tenant_steps as steps
from tests.scenarios.world_run import NS, Obj, Run, judged, objects, scenario_world
from tests.support import objects as fixtures
from tests.support.waits import eventually, stays

pytestmark = pytest.mark.slow
MODES = [pytest.param(False, id="fault-free"), pytest.param(True, id="chaos")]
FIRST, SECOND = "host-000", "host-001"
ELSEWHERE = "other-tenant"
QUIET = 3.0
"""Seconds (six resync ticks) in which an injected record must create nothing."""


def _pool(name: str, namespace: str, start: str, end: str) -> Obj:
    pool = fixtures.pool(name, start, end, 24, start.rsplit(".", 1)[0] + ".1", [])
    return steps.in_namespace(pool, namespace)


def _injected_records(run: Run, setup: list[Obj], later: Obj) -> None:
    run.create([*setup, later])
    run.reach([FIRST, SECOND], ProvisioningState.AVAILABLE)
    steps.namespace(run, ELSEWHERE)
    run.create([_pool("theirs", ELSEWHERE, "10.9.0.10", "10.9.0.20"),
                _pool("spare", NS, "10.8.0.10", "10.8.0.20")])  # fmt: skip
    addresses, before = {h: run.address(h) for h in (FIRST, SECOND)}, steps.claims(run)
    records = {FIRST: f"{ELSEWHERE}/theirs", SECOND: f"{NS}/{POOL},{NS}/spare"}
    with steps.acting(run, tenant.ANNOTATE_HOSTS) as attacker:
        for host, record in records.items():
            attacker.annotate_host(host, {keys.RELEASED_AT_ANNOTATION: "2026-01-01T00:00:00Z",
                                          keys.CLAIMED_POOLS_ANNOTATION: record})  # fmt: skip
    stays(lambda: steps.claims(run) == before, QUIET, "no claim made from an annotation")
    assert {h: run.address(h) for h in addresses} == addresses


def _reclaim_while_another_registers(run: Run, setup: list[Obj], later: Obj) -> None:
    run.create(setup)
    run.reach([FIRST], ProvisioningState.AVAILABLE)
    own, gone = run.address(FIRST), run.ipam.get("ipclaims", NS, f"{FIRST}-{POOL}")
    assert own is not None and gone is not None
    with steps.acting(run, tenant.DELETE_CLAIMS) as attacker:
        attacker.delete_claim(f"{FIRST}-{POOL}")

    def asked_back() -> bool:
        claim = run.ipam.get("ipclaims", NS, f"{FIRST}-{POOL}") or {"metadata": {}}
        meta = claim["metadata"]
        asks = (meta.get("annotations") or {}).get(keys.REQUESTED_IP_ANNOTATION)
        return meta.get("uid") not in (None, gone["metadata"]["uid"]) and asks == own

    eventually(asked_back, 60, "host-000's claim made again, asking for its own address")
    run.create([later])  # host-001 registers while the re-claim waits for IPAM
    run.reach([FIRST, SECOND], ProvisioningState.AVAILABLE)
    assert run.address(FIRST) == own and run.wire_of(FIRST) == (own,)
    assert run.address(SECOND) not in (None, own)
    assert steps.events(run, FIRST, Reason.ADDRESS_NOT_RESTORED) == []


def _holding_bmo(run: Run, until: threading.Event) -> None:
    """Until `until` is set, BMO's patch of a Secret it starts to use (its label and finalizer,
    `standins.bmh_secrets`) fails with 503 and is retried: the window in which a Secret
    deleted right after release is really gone, not kept by BMO's finalizer."""
    then = run.world.sandbox.fault

    def fault(info: RequestInfo) -> ApiError | None:
        bmo = not info.identity.startswith(SERVICE_ACCOUNT_PREFIX)
        if bmo and info.resource == "secrets" and info.verb == "patch" and not until.is_set():
            return ApiError(503, "ServiceUnavailable", "BMO held by the scenario")
        return then(info) if then is not None else None

    run.world.sandbox.fault = fault


def _secret_deleted_after_release(run: Run, setup: list[Obj], later: Obj) -> None:
    name, deleted = FIRST + keys.SECRET_NAME_SUFFIX, threading.Event()
    _holding_bmo(run, deleted)
    with steps.acting(run, tenant.DELETE_SECRETS) as attacker:
        run.create(setup)

        def released() -> bool:
            host = run.host(FIRST) or {"metadata": {}}
            return keys.PAUSED_ANNOTATION not in (host["metadata"].get("annotations") or {})

        eventually(released, 60, "host-000 released")
        before = Secret.model_validate(attacker.secret(name)).decoded(keys.NETWORK_DATA_KEY)
        attacker.delete_secret(name)
        deleted.set()

    def restored() -> str | None:
        try:
            found = client.CoreV1Api(run.api).read_namespaced_secret(name, NS)
        except client.ApiException:
            return None
        raw = run.api.sanitize_for_serialization(found)  # type: ignore[no-untyped-call]
        if raw["metadata"].get("deletionTimestamp"):
            return None
        return Secret.model_validate(raw).decoded(keys.NETWORK_DATA_KEY)

    assert eventually(restored, 60, "host-000's Secret written again") == before
    eventually(lambda: steps.events(run, FIRST, Reason.SECRET_RESTORED), 60, "SecretRestored")
    run.reach([FIRST], ProvisioningState.AVAILABLE)
    assert run.wire_of(FIRST) == (run.address(FIRST),)


Attack = Callable[[Run, list[Obj], Obj], None]
ATTACKS = [
    pytest.param(_injected_records, id="injected-records"),
    pytest.param(_reclaim_while_another_registers, id="reclaim-while-another-registers"),
    pytest.param(_secret_deleted_after_release, id="secret-deleted-after-release"),
]


@pytest.mark.parametrize("chaotic", MODES)
@pytest.mark.parametrize("attack", ATTACKS)
def test_a_tenants_write_gives_no_host_another_address(attack: Attack, chaotic: bool) -> None:
    *setup, later = objects(2)
    with scenario_world(chaotic) as run:
        attack(run, setup, later)
        run.past_the_stall_bound()
    judged(run)
