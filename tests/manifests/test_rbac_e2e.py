"""Least privilege from behaviour: each function's Role equals what its code did in a run.

The whole chain runs against the sandbox API server (tests/support/scenario.py::run_chain), each
function with its own bearer token, over a scenario that walks every path that makes API
calls: a template named by annotation, one found through a Metal3MachineTemplate, our own
Metal3PreprovisioningDataTemplate, a template without pools (rendered at once), an exhausted
pool, a host that is not ours; then resync re-drives a host whose events were never sent;
then the functions as pods run them, with their watch caches (`rbac_cache_steps`).
The sandbox audits every request; `rbac.compare` turns it into excess and missing
permissions against the Roles `deploy/` installs. A Role that grants a verb the code never
used, or lacks one it used, fails here.
"""

from __future__ import annotations

import base64
import copy
from collections.abc import Callable, Iterator

import pytest
from kubernetes import client as k8s

from dhcpless import keys
from dhcpless.kube import Kube
from dhcpless_sandbox.apiserver.server import SandboxServer
from tests.support import harness as e2e
from tests.support import objects, scenario

from . import (
    rbac_cache_steps,
    rbac_legacy_claim_steps,
    rbac_lifecycle_steps,
    rbac_redelivery_steps,
    rbac_render_steps,
)
from .rbac import compare, grants_of, used
from .support import ROOT, Obj, named

pytestmark = [pytest.mark.e2e, pytest.mark.kubectl]

OUR_CRD = ROOT / "deploy" / "crds" / "metal3preprovisioningdatatemplates.yaml"
TEMPLATE_REF = "{plural}.infrastructure.cluster.x-k8s.io/{name}"


def _reference(plural: str, name: str) -> str:
    return TEMPLATE_REF.format(plural=plural, name=name)


def _preprovisioning_template(name: str, network_data: Obj) -> Obj:
    return {
        "apiVersion": f"{keys.CAPM3_GROUP}/{keys.CAPM3_VERSION}",
        "kind": "Metal3PreprovisioningDataTemplate",
        # IPv6 alone: for a ramdisk whose glean writer configures it (the debian one)
        "metadata": {
            "name": name,
            "namespace": objects.NS,
            "annotations": {keys.RAMDISK_PROFILE_ANNOTATION: "glean-debian"},
        },
        "spec": {"preprovisioningNetworkData": network_data},
    }


def _tiny_pool_template() -> Obj:
    network_data: Obj = copy.deepcopy(objects.IPV4)
    network_data["networks"]["ipv4"][0]["ipAddressFromIPPool"] = "tiny"
    network_data["networks"]["ipv4"][0]["routes"][0]["gateway"] = {"fromIPPool": "tiny"}
    network_data["services"] = {"dnsFromIPPool": "tiny"}
    template: Obj = objects.data_template(network_data, "tmpl-tiny")
    return template


def _user_secret() -> Obj:
    """A Secret a user wrote and named in the host's spec (no labels of ours)."""
    encoded = base64.b64encode(objects.VALID_NETWORK_DATA.encode()).decode()
    return {
        "apiVersion": "v1",
        "kind": "Secret",
        "metadata": {"name": "user-secret", "namespace": objects.NS},
        "type": "Opaque",
        "data": {keys.NETWORK_DATA_KEY: encoded},
    }


def _world() -> list[Obj]:
    dt = "metal3datatemplates"
    tiny = objects.pool("tiny", "10.0.0.5", "10.0.0.5", 24, "10.0.0.1", [])
    return [
        objects.POOL4,
        objects.POOL6,
        tiny,
        objects.data_template(objects.IPV4, "tmpl"),
        objects.data_template(objects.DUAL, "tmpl-dual"),
        objects.data_template(objects.NO_POOLS, "tmpl-nopools"),
        _tiny_pool_template(),
        _preprovisioning_template("pre-v6", objects.IPV6),
        objects.machine_template("mt", "tmpl-dual", {"rack": "r1"}),
        objects.host("by-annotation", template=_reference(dt, "tmpl")),
        objects.host("by-selector", template=None, labels={"rack": "r1"}),
        objects.host("ours", template=_reference("metal3preprovisioningdatatemplates", "pre-v6")),
        objects.host("no-pools", template=_reference(dt, "tmpl-nopools")),
        objects.host("tiny-1", template=_reference(dt, "tmpl-tiny")),
        objects.host("tiny-2", template=_reference(dt, "tmpl-tiny")),
        objects.host("not-paused", pause=None, template=_reference(dt, "tmpl")),
        objects.host("user-named", data_name="user-secret", template=None),
        _user_secret(),
    ]


def _late_hosts() -> list[Obj]:
    """Hosts created while no source runs: only resync ever sees them (every template path)."""
    ours = _reference("metal3preprovisioningdatatemplates", "pre-v6")
    return [
        objects.host("late-annotation", template=_reference("metal3datatemplates", "tmpl")),
        objects.host("late-selector", template=None, labels={"rack": "r1"}),
        objects.host("late-ours", template=ours),
    ]


def _ping(sandbox: SandboxServer, budget: float = 30.0) -> int:
    """One PingSource tick to the resync function, with resync's own identity."""
    from functions.resync.app import create_app
    from functions.resync.settings import ResyncSettings

    token = e2e.IDENTITIES["resync"]
    with sandbox.api_client(token=token) as api:
        resync = ResyncSettings(namespace=objects.NS, budget_seconds=budget)
        client = create_app(Kube(api), resync=resync).test_client()
        return rbac_cache_steps.ping(client)


@pytest.fixture(scope="module")
def audit() -> Iterator[list[object]]:
    """The audit of one full run: the chain with events, then resync without them."""
    with e2e.running() as sandbox:
        sandbox.apply_crd_file(OUR_CRD)
        result = scenario.run_chain(sandbox, _world(), e2e.IDENTITIES)
        assert not result.hosts["by-annotation"].annotations.get(keys.PAUSED_ANNOTATION)
        with sandbox.api_client() as admin:
            for host in _late_hosts():
                scenario.create(admin, host)
            for _ in range(3):  # claim; render once IPAM fulfilled; release
                assert _ping(sandbox) == 204
                scenario.Ipam(admin).fulfil_all()
            assert _paused(admin) == ["tiny-2"]  # the exhausted pool's second host only
        assert rbac_lifecycle_steps.lifecycle(sandbox, "by-annotation", "pool4") == 204
        assert rbac_lifecycle_steps.heal(sandbox, "tiny-2", "tiny")
        assert rbac_lifecycle_steps.external(sandbox)
        rbac_lifecycle_steps.external_resync(sandbox, lambda: _ping(sandbox))
        assert rbac_legacy_claim_steps.older_claims(sandbox, {"rack": "r1"})
        assert rbac_legacy_claim_steps.hand_written_secret(sandbox)
        assert rbac_legacy_claim_steps.rendered_again(sandbox)
        assert rbac_legacy_claim_steps.named_later(sandbox)
        assert rbac_redelivery_steps.redelivered(sandbox, "tiny-2", "tiny")
        assert rbac_redelivery_steps.gated(sandbox, lambda: _ping(sandbox))
        assert rbac_redelivery_steps.external_twice(sandbox, lambda: _ping(sandbox))
        assert rbac_redelivery_steps.lent_by_resync(
            sandbox, "late-annotation", "pool4", lambda: _ping(sandbox)
        )
        assert rbac_redelivery_steps.names_taken(sandbox)
        assert rbac_redelivery_steps.capi_names(sandbox)
        assert rbac_redelivery_steps.resync_finds_names(sandbox, lambda: _ping(sandbox))
        tmpl = _reference("metal3datatemplates", "tmpl")
        assert rbac_render_steps.registration_renders(sandbox, tmpl)
        assert rbac_cache_steps.by_events(sandbox, {"rack": "r1"})
        assert rbac_cache_steps.by_resync(sandbox, {"rack": "r1"})
        _stopped_and_continued(sandbox)
        yield list(sandbox.audit.records)


def _stopped_and_continued(sandbox: SandboxServer) -> None:
    """Two hosts only resync sees and a budget spent at once: the tick stops after the first
    and creates its cursor; the next, with room, completes the round and clears it."""
    with sandbox.api_client() as admin:
        for name in ("budget-0", "budget-1"):
            scenario.create(admin, objects.host(name))
        assert _ping(sandbox, budget=1e-9) == 204
        cursor = k8s.CoreV1Api(admin).read_namespaced_config_map(
            keys.RESYNC_CURSOR_CONFIGMAP, objects.NS
        )
        assert (cursor.data or {}).get("next")
        assert _ping(sandbox) == 204
        cursor = k8s.CoreV1Api(admin).read_namespaced_config_map(
            keys.RESYNC_CURSOR_CONFIGMAP, objects.NS
        )
        assert not (cursor.data or {}).get("next")


def _paused(admin: k8s.ApiClient) -> list[str]:
    listing = k8s.CustomObjectsApi(admin).list_namespaced_custom_object(
        keys.BMO_GROUP, keys.BMO_VERSION, objects.NS, "baremetalhosts"
    )
    assert isinstance(listing, dict)
    return sorted(
        h["metadata"]["name"]
        for h in listing["items"]
        if h["metadata"].get("annotations", {}).get(keys.PAUSED_ANNOTATION)
    )


@pytest.mark.parametrize("function", list(e2e.FUNCTIONS))
def test_role_equals_what_the_code_did(
    installed: list[Obj], audit: list[object], function: str
) -> None:
    finding = compare(grants_of(installed, function), used(audit, function))
    assert sorted(map(str, finding.missing)) == [], "the code needs these, the Role lacks them"
    assert sorted(map(str, finding.excess)) == [], "the Role grants these, the code never used them"


def _drop_patch(role: Obj) -> None:
    role["rules"][0]["verbs"].remove("patch")


def _add_delete(role: Obj) -> None:
    role["rules"][0]["verbs"].append("delete")


@pytest.mark.parametrize(
    ("mutate", "direction"),
    [
        pytest.param(_drop_patch, "missing", id="lacks-a-verb-the-code-uses"),
        pytest.param(_add_delete, "excess", id="grants-a-verb-never-used"),
    ],
)
def test_mutated_role_is_caught(
    installed: list[Obj], audit: list[object], mutate: Callable[[Obj], None], direction: str
) -> None:
    objs = copy.deepcopy(installed)
    mutate(named(objs, "Role", "secret-readiness"))
    finding = compare(grants_of(objs, "secret-readiness"), used(audit, "secret-readiness"))
    reported = finding.missing if direction == "missing" else finding.excess
    assert {str(a) for a in reported} == {
        "patch baremetalhosts.metal3.io"
        if direction == "missing"
        else "delete baremetalhosts.metal3.io"
    }
