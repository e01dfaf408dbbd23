"""Identity for CAPI IPAddressClaims too (issue 12, finding 8): an `IPAddressClaim` under the
name `<bmh>-<pool>` that is not this host's is a conflict, never a silent wait."""

from __future__ import annotations

from kubernetes import client as k8s

from dhcpless import keys
from dhcpless.keys import EventType
from dhcpless_sandbox.standins.capi_ipam import load_crds
from tests.manifests.rbac_lifecycle_steps import CAPI_GROUP, external_world
from tests.scenarios import steps
from tests.support import harness, objects


def test_a_foreign_ipaddressclaim_under_our_name_is_a_conflict() -> None:
    with harness.running() as sandbox:
        load_crds(sandbox)
        pool, *rest = external_world()
        foreign = {
            "apiVersion": f"{CAPI_GROUP}/{keys.CAPI_IPAM_VERSION}",
            "kind": "IPAddressClaim",
            "metadata": {"name": "ext-1-ext", "namespace": objects.NS},
            "spec": {"poolRef": {"apiGroup": CAPI_GROUP, "kind": "InClusterIPPool", "name": "ext"}},
        }
        with sandbox.api_client() as admin:
            api = k8s.CustomObjectsApi(admin)
            api.create_namespaced_custom_object(
                CAPI_GROUP, "v1alpha2", objects.NS, "inclusterippools", pool
            )
            api.create_namespaced_custom_object(
                CAPI_GROUP, keys.CAPI_IPAM_VERSION, objects.NS, "ipaddressclaims", foreign
            )
        stored = [harness.put(sandbox, obj) for obj in rest]
        assert steps.fire(sandbox, "host-registration", stored[-1], EventType.RESOURCE_ADD) == 204
        assert steps.paused(sandbox, "ext-1")
        assert any(r == "ClaimConflict" for r, _ in steps.warnings(sandbox, "ext-1"))
