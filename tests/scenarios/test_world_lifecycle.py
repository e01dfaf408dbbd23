"""What users do to hosts once they are served, run in the whole world (issue 12).

Each scenario runs fault-free and under every chaos fault at once, and ends with the judges'
counters all 0 (`world_run.CLEAN`): no address on two machines, none bound to two hosts, no host
stranded without a Warning. Hosts that can be served end `available`, each with its own claim
owned by its own UID.
"""

from __future__ import annotations

import pytest
from kubernetes import client

from dhcpless import keys
from dhcpless.keys import ProvisioningState
from dhcpless_sandbox.demo.inventory import POOL, host
from tests.scenarios.world_run import NS, Run, judged, objects, scenario_world
from tests.support.waits import eventually

pytestmark = pytest.mark.slow
AVAILABLE = ProvisioningState.AVAILABLE
MODES = [pytest.param(False, id="fault-free"), pytest.param(True, id="chaos")]
NAMES = ["host-000", "host-001"]


def _served(run: Run, names: list[str] = NAMES) -> None:
    run.reach(names, AVAILABLE)
    eventually(lambda: all(run.owns_its_claim(n) for n in names), 30, "own claims")


def _gone(run: Run, name: str) -> bool:
    return run.host(name) is None and run.ipam.get("ipclaims", NS, f"{name}-{POOL}") is None


@pytest.mark.parametrize("chaotic", MODES)
@pytest.mark.parametrize(
    "later", [pytest.param(False, id="at-once"), pytest.param(True, id="later")]
)
def test_delete_and_recreate(chaotic: bool, later: bool) -> None:
    with scenario_world(chaotic) as run:
        run.create(objects(2))
        _served(run)
        old_uid = (run.host("host-000") or {})["metadata"]["uid"]
        run.hosts.delete("baremetalhosts", NS, "host-000")
        if later:
            eventually(lambda: _gone(run, "host-000"), 30, "old host and claim gone")
        else:
            eventually(lambda: run.host("host-000") is None, 30, "old host gone")
        run.create([host(0, NS)])
        _served(run)
        assert (run.host("host-000") or {})["metadata"]["uid"] != old_uid
        assert run.address("host-000") != run.address("host-001")
    judged(run)


@pytest.mark.parametrize("chaotic", MODES)
def test_delete_the_host_frees_its_address_once(chaotic: bool) -> None:
    with scenario_world(chaotic) as run:
        run.create(objects(2))
        _served(run)
        freed = run.address("host-000")
        run.hosts.delete("baremetalhosts", NS, "host-000")
        eventually(lambda: _gone(run, "host-000"), 30, "host and claim gone")
        addresses = [a["spec"]["address"] for a in run.ipam.list_items("ipaddresses", NS)]
        assert freed is not None and addresses.count(freed) == 0
        assert addresses.count(run.address("host-001")) == 1
        run.create([host(2, NS)])  # the freed address may now go to a new host, and only it
        _served(run, ["host-001", "host-002"])
    judged(run)


DELETIONS = [
    pytest.param(False, "secret", id="secret-fault-free"),
    pytest.param(True, "secret", id="secret-chaos"),
    pytest.param(False, "claim", id="claim-fault-free"),
    pytest.param(True, "claim", id="claim-chaos"),
]


@pytest.mark.parametrize(("chaotic", "what"), DELETIONS)
def test_delete_the_secret_or_a_claim_after_release(chaotic: bool, what: str) -> None:
    with scenario_world(chaotic) as run:
        run.create(objects(2))
        _served(run)
        before, old = run.address("host-000"), _claim_uid(run, "host-000")
        if what == "secret":
            secret = "host-000" + keys.SECRET_NAME_SUFFIX
            client.CoreV1Api(run.api).delete_namespaced_secret(secret, NS)
        else:
            run.ipam.delete("ipclaims", NS, f"host-000-{POOL}")
        if what == "claim":
            again = lambda: _claim_uid(run, "host-000") not in ("", old)  # noqa: E731
            eventually(again, 10, "claimed again")  # resync ticks every 0.5 s
        eventually(lambda: run.owns_its_claim("host-000") and run.address("host-000"), 60,
                   "an address")  # fmt: skip
        assert run.address("host-000") == before  # nothing else took it meanwhile
        assert run.state("host-000") == AVAILABLE.value
    judged(run)


@pytest.mark.parametrize("chaotic", MODES)
def test_reapply_the_original_manifests_after_release(chaotic: bool) -> None:
    """`kubectl apply` of the manifests as written: the pause annotation comes back."""
    with scenario_world(chaotic) as run:
        run.create(objects(1))
        _served(run, ["host-000"])
        before = run.address("host-000")
        original = host(0, NS)
        run.hosts.patch("baremetalhosts", NS, "host-000", {"metadata": original["metadata"]})
        eventually(lambda: not _paused(run, "host-000"), 60, "released again")
        assert run.address("host-000") == before
        assert run.state("host-000") == AVAILABLE.value
    judged(run)


def _claim_uid(run: Run, name: str) -> str:
    claim = run.ipam.get("ipclaims", NS, f"{name}-{POOL}") or {"metadata": {}}
    return str(claim["metadata"].get("uid", ""))


def _paused(run: Run, name: str) -> bool:
    annotations = (run.host(name) or {"metadata": {}})["metadata"].get("annotations") or {}
    return keys.PAUSED_ANNOTATION in annotations
