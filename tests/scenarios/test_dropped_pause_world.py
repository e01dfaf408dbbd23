"""UPDATEs that drop a waiting host's pause, in the whole world, fault-free and under chaos
(issue 24, item 5).

The keep-pause policy (`deploy/admission/keep-pause/`) serves the namespace. A GitOps tool with
only the rights it names (`tenant.APPLY_HOSTS`) created host-000 by server-side apply with the
pause, as the README advises; IPAM then answers nothing for a while (its pool waits for a
Cluster that does not exist: ip-address-manager `controllers/ippool_controller.go`), so the
host waits for its network data. Each row is one way an UPDATE drops the pause:

* `annotate`: `kubectl annotate bmh host-000 baremetalhost.metal3.io/paused-`;
* `replace`: `kubectl replace` (Argo CD `Replace=true`) of the host without the annotation;
* `apply`: the manifest applied again without the pause it once carried: server-side apply
  removes a field its manager no longer applies (kubernetes `fieldmanager`'s apply).

Every one is refused with the policy's message (a 403 naming it), the host stays paused, and
once IPAM answers our release patch (which sets `spec.preprovisioningNetworkDataName` in the
same request) passes: the host reaches `available` with its own address. The judges end at 0.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml
from kubernetes import client

from dhcpless import keys
from dhcpless.keys import ProvisioningState
from dhcpless.reasons import Reason
from dhcpless_sandbox.demo.inventory import POOL
from tests.adversary import tenant
from tests.scenarios import tenant_steps as steps
from tests.scenarios.world_run import NS, Obj, Run, judged, objects, scenario_world
from tests.support.waits import eventually, stays

pytestmark = pytest.mark.slow
MODES = [pytest.param(False, id="fault-free"), pytest.param(True, id="chaos")]
HOST = "host-000"
POLICY = Path(__file__).parents[2] / "deploy" / "admission" / "keep-pause"
PLURALS = {
    "ValidatingAdmissionPolicy": "validatingadmissionpolicies",
    "ValidatingAdmissionPolicyBinding": "validatingadmissionpolicybindings",
}
Drop = Callable[[tenant.Tenant, Obj], None]


def _keep_pause(run: Run) -> None:
    """The policy and its binding installed; the scenario namespace in their scope."""
    steps.namespace(run, NS, {keys.PREPROVISIONING_SCOPE_LABEL: keys.SCOPE_ENABLED})
    custom = client.CustomObjectsApi(run.api)
    for doc in yaml.safe_load_all((POLICY / "keep-pause-policy.yaml").read_text()):
        group, version = doc["apiVersion"].split("/")
        custom.create_cluster_custom_object(group, version, PLURALS[doc["kind"]], doc)


def _manifest(host: Obj) -> Obj:
    """What the GitOps tool holds: the host as written, without server-made fields."""
    meta = host["metadata"]
    kept = {k: meta[k] for k in ("name", "namespace", "labels", "annotations") if k in meta}
    return {"apiVersion": host["apiVersion"], "kind": host["kind"], "metadata": kept,
            "spec": copy.deepcopy(host["spec"])}  # fmt: skip


def _without_pause(obj: Obj) -> Obj:
    dropped = copy.deepcopy(obj)
    dropped["metadata"]["annotations"].pop(keys.PAUSED_ANNOTATION)
    return dropped


def _annotate(attacker: tenant.Tenant, _: Obj) -> None:
    attacker.annotate_host(HOST, {keys.PAUSED_ANNOTATION: None})


def _replace(attacker: tenant.Tenant, _: Obj) -> None:
    attacker.replace_host(_without_pause(attacker.host(HOST)))


def _apply(attacker: tenant.Tenant, manifest: Obj) -> None:
    attacker.apply_host(_without_pause(manifest))


DROPS = [
    pytest.param(_annotate, id="annotate"),
    pytest.param(_replace, id="replace"),
    pytest.param(_apply, id="apply"),
]


def _paused(run: Run) -> bool:
    annotations = (run.host(HOST) or {"metadata": {}})["metadata"].get("annotations") or {}
    return annotations.get(keys.PAUSED_ANNOTATION) == keys.PREPROVISIONING_PAUSE


@pytest.mark.parametrize("chaotic", MODES)
@pytest.mark.parametrize("drop", DROPS)
def test_an_update_dropping_the_pause_is_refused_and_our_release_passes(
    drop: Drop, chaotic: bool
) -> None:
    *setup, host = objects(1)
    with scenario_world(chaotic) as run:
        _keep_pause(run)
        run.create(setup)
        run.ipam.patch("ippools", NS, POOL, {"spec": {"clusterName": "not-there"}})
        manifest = _manifest(host)
        with steps.acting(run, tenant.APPLY_HOSTS) as gitops:
            gitops.apply_host(manifest)
            eventually(lambda: run.ipam.get("ipclaims", NS, f"{HOST}-{POOL}"), 60, "its claim")
            with pytest.raises(client.ApiException) as refused:
                drop(gitops, manifest)
        assert refused.value.status == 403
        assert "dhcpless-keep-preprovisioning-pause" in str(refused.value.body)
        stays(lambda: _paused(run), 1.0, "host-000 paused after the refused UPDATE")
        run.ipam.patch("ippools", NS, POOL, {"spec": {"clusterName": None}})  # IPAM is back
        run.reach([HOST], ProvisioningState.AVAILABLE)
        assert run.wire_of(HOST) == (run.address(HOST),) and run.owns_its_claim(HOST)
        assert steps.events(run, HOST, Reason.REGISTERED_UNPAUSED) == []
        run.past_the_stall_bound()
    judged(run)
