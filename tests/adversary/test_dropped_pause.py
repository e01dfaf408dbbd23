"""Issue 24, finding 5: an UPDATE that drops the pause of a waiting host.

The tenant may annotate hosts (`tenant.ANNOTATE_HOSTS`). `kubectl annotate bmh <host>
baremetalhost.metal3.io/paused-` on a host still waiting for its network data unpaused it: BMO
inspected it with no data, and one `RegisteredUnpaused` Warning followed. With the keep-pause
policy installed (`deploy/admission/keep-pause/`, as both admission components include it) the
tenant's UPDATE is refused with the policy's message, while our release patch still passes.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import yaml
from kubernetes import client as k8s

from dhcpless import keys
from dhcpless_sandbox.apiserver.server import SandboxServer
from tests.adversary import tenant
from tests.manifests.support import ROOT
from tests.scenarios import steps
from tests.support import harness, objects

POLICY = ROOT / "deploy" / "admission" / "keep-pause" / "keep-pause-policy.yaml"
PLURALS = {
    "ValidatingAdmissionPolicy": "validatingadmissionpolicies",
    "ValidatingAdmissionPolicyBinding": "validatingadmissionpolicybindings",
}


@pytest.fixture
def world() -> Iterator[SandboxServer]:
    """The test namespace served by the policy; host-0 waiting for IPAM."""
    with harness.running() as sandbox, sandbox.api_client() as api:
        scope = {"metadata": {"labels": {keys.PREPROVISIONING_SCOPE_LABEL: keys.SCOPE_ENABLED}}}
        k8s.CoreV1Api(api).patch_namespace(objects.NS, scope)
        for doc in yaml.safe_load_all(POLICY.read_text()):
            k8s.CustomObjectsApi(api).create_cluster_custom_object(
                "admissionregistration.k8s.io", "v1", PLURALS[doc["kind"]], doc
            )
        for obj in (objects.POOL4, objects.data_template(objects.IPV4)):
            harness.put(sandbox, obj)
        steps.register(sandbox, objects.host())
        yield sandbox


def test_the_tenant_cannot_drop_the_pause_and_our_release_still_passes(
    world: SandboxServer,
) -> None:
    with (
        tenant.acting(world, tenant.ANNOTATE_HOSTS) as attacker,
        pytest.raises(k8s.ApiException) as refused,
    ):
        attacker.annotate_host("host-0", {keys.PAUSED_ANNOTATION: None})  # `paused-`
    assert refused.value.status == 403
    assert "dhcpless-keep-preprovisioning-pause" in str(refused.value.body)
    assert steps.paused(world, "host-0")
    assert steps.fire(world, "ipclaim-fulfilment", steps.fulfil(world, "host-0-pool4")) == 204
    assert not steps.paused(world, "host-0")  # released by us, through the same policy
