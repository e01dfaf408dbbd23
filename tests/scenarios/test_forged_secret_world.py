"""A forged Secret in the whole world, fault-free and under chaos (issue 24, finding 1).

host-000 is served. IPAM then answers nothing for a while (its pool waits for a Cluster that
does not exist: ip-address-manager `controllers/ippool_controller.go`), and host-001 waits.
A tenant who may read hosts and write Secrets (`tests.adversary.tenant`) writes host-001's
Secret itself: our labels, an ownerReference with host-001's UID, and host-000's network
data with host-001's boot MAC put in, so every pre-unpause rule passes. It arrives through
the Secret source and the broker like any Secret: host-001 stays paused with a
`SecretUnverified` Warning (under chaos, whose lost events may drop it, with whatever
Warning explains the wait). Once IPAM answers, the chain renders host-001's own address,
writes its Secret again and serves the host with it. The judges end at 0: no address on two
machines (`duplicate_on_wire`), no host waiting without a Warning (`silent_stalls`).
"""

from __future__ import annotations

import base64
import json

import pytest
from kubernetes import client

from dhcpless import keys
from dhcpless.keys import ProvisioningState
from dhcpless_sandbox.demo.inventory import POOL
from tests.adversary import tenant
from tests.scenarios.world_run import NS, Obj, Run, judged, objects, scenario_world
from tests.support.waits import eventually, stays

pytestmark = pytest.mark.slow
MODES = [pytest.param(False, id="fault-free"), pytest.param(True, id="chaos")]
SERVED, WAITING = "host-000", "host-001"


def _in_ns(obj: Obj) -> Obj:
    obj["metadata"]["namespace"] = NS
    return obj


def _forge(run: Run) -> None:
    """The tenant, with only its named rights, writes host-001's Secret from host-000's."""
    with tenant.acting(
        run.world.sandbox, tenant.READ_HOSTS, tenant.WRITE_SECRETS, namespace=NS
    ) as attacker:
        api = client.CoreV1Api(attacker.api)
        theirs = api.read_namespaced_secret(SERVED + keys.SECRET_NAME_SUFFIX, NS)
        custom = client.CustomObjectsApi(attacker.api)
        hosts: dict[str, Obj] = {}
        for name in (SERVED, WAITING):
            found = custom.get_namespaced_custom_object(
                keys.BMO_GROUP, keys.BMO_VERSION, NS, "baremetalhosts", name
            )
            assert isinstance(found, dict)
            hosts[name] = found
        text = base64.b64decode((theirs.data or {})[keys.NETWORK_DATA_KEY]).decode()
        macs = [str(h["spec"]["bootMACAddress"]).lower() for h in hosts.values()]
        forged = json.loads(text.replace(macs[0], macs[1]))
        copied = {
            "metadata": {},
            "data": {keys.NETWORK_DATA_KEY: base64.b64encode(json.dumps(forged).encode()).decode()},
        }
        attacker.create(_in_ns(tenant.forged_secret(hosts[WAITING], copied)))


def _warned(run: Run, reason: str | None) -> bool:
    """A Warning on host-001 (with `reason`, unless None: any)."""
    events = client.CoreV1Api(run.api).list_namespaced_event(NS).items
    return any(
        e.involved_object.name == WAITING and e.type == "Warning" and reason in (None, e.reason)
        for e in events
    )


def _paused(run: Run) -> bool:
    annotations = (run.host(WAITING) or {"metadata": {}})["metadata"].get("annotations") or {}
    return annotations.get(keys.PAUSED_ANNOTATION) == keys.PREPROVISIONING_PAUSE


@pytest.mark.parametrize("chaotic", MODES)
def test_a_forged_secret_never_serves_a_host_with_another_hosts_address(chaotic: bool) -> None:
    *setup, waiting = objects(2)
    with scenario_world(chaotic) as run:
        run.create(setup)
        run.reach([SERVED], ProvisioningState.AVAILABLE)
        run.ipam.patch("ippools", NS, POOL, {"spec": {"clusterName": "not-there"}})
        run.create([waiting])
        eventually(lambda: run.ipam.get("ipclaims", NS, f"{WAITING}-{POOL}"), 60, "its claim")
        _forge(run)
        # under chaos the Secret's event may be lost: then the wait is explained otherwise
        # (resync's `ClaimUnanswered`), and only the claims' path ever looks at the forgery
        said = None if chaotic else "SecretUnverified"
        eventually(lambda: _warned(run, said), 60, f"host-001's wait explained ({said or 'any'})")
        stays(lambda: _paused(run), 2.0, "host-001 paused on the forged Secret")
        run.ipam.patch("ippools", NS, POOL, {"spec": {"clusterName": None}})  # IPAM is back
        run.reach([SERVED, WAITING], ProvisioningState.AVAILABLE)
        own, theirs = run.address(WAITING), run.address(SERVED)
        assert own is not None and own != theirs
        assert run.wire_of(WAITING) == (own,)
        assert run.owns_its_claim(WAITING)
    judged(run)
