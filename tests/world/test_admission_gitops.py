"""The whole chain with deploy/admission applied by kubectl, and a GitOps re-apply loop.

Covers, in the world `dhcpless sandbox` runs (API server, IPAM, BMO with glean, the four
functions behind the broker), driven by the real kubectl:
* with the pause policy applied and the namespace in scope, hosts created without the
  annotation are paused on create and reach `available` with our Secret; an UPDATE never
  gains the pause; a host created with `preprovisioningNetworkDataName` is not paused; an
  opted-out host is untouched;
* re-applying the original host manifests 10 times, with the pause in them (no policy) and
  without (policy): every host ends released and `available`, each re-apply costs at most one
  release patch per host, resync never runs, and a manifest that carries the pause gets an
  Event saying so;
* without the policy, a host created unpaused gets the slipped-through Warning, once, while
  BMO holds it in `inspecting`;
* the demo creates half of its hosts without the annotation through the policy and says so.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from kubernetes import client

from dhcpless import keys
from dhcpless.chain.decide import slipped
from dhcpless_sandbox.demo.inventory import NAMESPACE, create, host, inventory
from dhcpless_sandbox.demo.policy import PolicyNote
from dhcpless_sandbox.demo.report import observe
from dhcpless_sandbox.demo.run import run_demo
from dhcpless_sandbox.runtime.world import World
from dhcpless_sandbox.runtime.world_settings import WorldSettings
from tests.support.kubectl import KUBECTL
from tests.support.waits import eventually

pytestmark = [pytest.mark.e2e, pytest.mark.kubectl]
REPO = Path(__file__).resolve().parents[2]
HOSTS = 3
DEADLINE = 90.0
Kubectl = Callable[..., str]


@pytest.fixture
def world() -> Iterator[World]:
    """Resync far away: whatever happens here happens on events alone."""
    started = World(WorldSettings(resync_seconds=3600, idle_seconds=0.5, identities=True))
    started.start()
    yield started
    started.stop()


@pytest.fixture
def kubectl(world: World, tmp_path: Path) -> Kubectl:
    config = world.sandbox.write_kubeconfig(tmp_path / "kubeconfig")
    base = [str(KUBECTL), f"--kubeconfig={config}", f"--cache-dir={tmp_path / 'cache'}"]

    def run(*args: str) -> str:
        done = subprocess.run([*base, *args], capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        return done.stdout

    return run


def _setup(world: World, kubectl: Kubectl, policy: bool) -> client.ApiClient:
    api = world.api_client()
    create(api, inventory(0))  # namespace, pool, templates: no hosts
    if policy:
        kubectl("apply", "-k", str(REPO / "deploy" / "admission"))
        scope = f"{keys.PREPROVISIONING_SCOPE_LABEL}={keys.SCOPE_ENABLED}"
        kubectl("label", "namespace", NAMESPACE, scope)
    return api


def _manifest(tmp_path: Path, hosts: list[dict[str, Any]], pause: bool) -> Path:
    for obj in hosts:
        if not pause:
            obj["metadata"]["annotations"].pop(keys.PAUSED_ANNOTATION)
    path = tmp_path / "hosts.yaml"
    path.write_text(yaml.safe_dump_all(hosts))
    return path


def _host(api: client.ApiClient, name: str) -> dict[str, Any]:
    found = client.CustomObjectsApi(api).get_namespaced_custom_object(
        keys.BMO_GROUP, keys.BMO_VERSION, NAMESPACE, "baremetalhosts", name
    )
    assert isinstance(found, dict)
    return found


def _done(api: client.ApiClient, names: list[str]) -> set[str]:
    """The hosts labelled done by their release (`chain.decide.quiet`)."""
    labels = {n: _host(api, n)["metadata"].get("labels") or {} for n in names}
    return {n for n, found in labels.items() if found.get(keys.DONE_LABEL) == keys.DONE_VALUE}


def _released(api: client.ApiClient, names: list[str]) -> bool:
    rows = {row.name: row for row in observe(api)}
    return all(rows[n].state == "available" and not rows[n].paused for n in names)


def _events(api: client.ApiClient, reason: str) -> set[str]:
    listing = client.CoreV1Api(api).list_namespaced_event(NAMESPACE).items
    return {str(e.involved_object.name) for e in listing if e.reason == reason}


def _release_patches(world: World) -> int:
    """Patches of a host's main resource by our functions (a release is one such patch)."""
    return sum(
        1
        for r in world.sandbox.audit.records
        if r.verb == "patch" and r.resource == "baremetalhosts" and not r.subresource
        and r.identity.startswith("system:serviceaccount:")
    )  # fmt: skip


def test_policy_pauses_on_create_only(world: World, kubectl: Kubectl, tmp_path: Path) -> None:
    api = _setup(world, kubectl, policy=True)
    hosts = [host(i) for i in range(4)]
    hosts[2]["metadata"]["labels"][keys.PREPROVISIONING_SCOPE_LABEL] = keys.SCOPE_DISABLED
    hosts[3]["spec"]["preprovisioningNetworkDataName"] = "own-data"
    own = client.V1Secret(
        metadata=client.V1ObjectMeta(name="own-data"), string_data={keys.NETWORK_DATA_KEY: "{}"}
    )
    client.CoreV1Api(api).create_namespaced_secret(NAMESPACE, own)  # BMO spins on a missing one
    kubectl("apply", "-f", str(_manifest(tmp_path, hosts, pause=False)))
    served = ["host-000", "host-001"]
    assert eventually(lambda: _released(api, served), timeout=DEADLINE)
    for name in served:
        obj = _host(api, name)
        assert obj["spec"]["preprovisioningNetworkDataName"] == name + keys.SECRET_NAME_SUFFIX
        assert keys.RELEASED_AT_ANNOTATION in obj["metadata"]["annotations"]  # was paused
    assert _events(api, "HostReleased") == set(served)
    for name in ("host-002", "host-003"):  # opted out; names its data: never paused
        annotations = _host(api, name)["metadata"].get("annotations") or {}
        assert not {keys.PAUSED_ANNOTATION, keys.RELEASED_AT_ANNOTATION} & set(annotations)
    kubectl("label", "baremetalhost", "-n", NAMESPACE, "host-000", "updated=yes")
    kubectl("annotate", "baremetalhost", "-n", NAMESPACE, "host-002", "touched=yes")
    for name in ("host-000", "host-002"):  # an UPDATE never gains the pause
        assert keys.PAUSED_ANNOTATION not in _host(api, name)["metadata"]["annotations"]


@pytest.mark.parametrize(
    ("pause_in_manifest", "policy", "apply"),
    [
        pytest.param(True, False, ("apply",), id="manifest-carries-pause"),
        pytest.param(
            True, False, ("apply", "--server-side"), id="server-side-manifest-carries-pause"
        ),
        pytest.param(False, True, ("apply",), id="policy-adds-pause"),
    ],
)
def test_reapplying_the_manifest_ten_times(
    world: World,
    kubectl: Kubectl,
    tmp_path: Path,
    pause_in_manifest: bool,
    policy: bool,
    apply: tuple[str, ...],
) -> None:
    """A host whose manifest holds the pause is never marked done (its re-pauses must reach
    host-registration); one whose pause the policy added is, after its one release."""
    api = _setup(world, kubectl, policy)
    names = [f"host-{i:03d}" for i in range(HOSTS)]
    manifest = _manifest(tmp_path, [host(i) for i in range(HOSTS)], pause_in_manifest)
    kubectl(*apply, "-f", str(manifest))
    assert eventually(lambda: _released(api, names), timeout=DEADLINE)
    assert _done(api, names) == (set() if pause_in_manifest else set(names))
    before = _release_patches(world)
    for round_ in range(1, 11):
        kubectl(*apply, "-f", str(manifest))
        assert eventually(lambda: _released(api, names), timeout=DEADLINE)
        extra = _release_patches(world) - before
        assert extra == (round_ * HOSTS if pause_in_manifest else 0)  # <= one per host each time
    assert world.counters().invocations.get("resync", 0) == 0
    explained = _events(api, "ManifestRepaused")
    assert explained == (set(names) if pause_in_manifest else set())


def test_host_created_unpaused_without_the_policy_is_warned_once(
    world: World, kubectl: Kubectl, tmp_path: Path
) -> None:
    api = _setup(world, kubectl, policy=False)
    kubectl("apply", "-f", str(_manifest(tmp_path, [host(0)], pause=False)))

    def warned_while_inspecting() -> list[str]:
        listing = client.CoreV1Api(api).list_namespaced_event(NAMESPACE).items
        found = [str(e.message) for e in listing if e.reason == "RegisteredUnpaused"]
        return found if observe(api)[0].state == "inspecting" else []

    assert eventually(warned_while_inspecting, timeout=DEADLINE) == [slipped.MESSAGE]


def test_demo_registers_half_its_hosts_through_the_policy(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert run_demo(6, json_output=False, deadline=DEADLINE) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[-1] == PolicyNote(6, 3, 3).line()
    assert run_demo(5, json_output=True, deadline=DEADLINE) == 0
    summary = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert (summary["available"], summary["policy"]) == (5, PolicyNote(5, 2, 2).as_json())
