"""The sandbox API server driven by real kubectl (a client nobody here wrote).

Covers: `kubectl apply` of every upstream Metal3 CRD (discovery, OpenAPI v3, server-side field
validation), `kubectl wait --for condition=established`, applying BareMetalHost, IPPool and
Metal3DataTemplate (v1beta2, with the API-server default `mtu: 1500`), `kubectl get` with
short names and printer columns, `kubectl get -w` seeing a later change, `kubectl patch`
(merge and json), `kubectl delete` (which waits through a watch), and invalid objects
rejected with a message naming the field.
"""

from __future__ import annotations

import json
import queue
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import yaml

from dhcpless_sandbox.apiserver.server import SandboxServer
from tests.support.kubectl import KUBECTL
from tests.support.waits import seconds

pytestmark = pytest.mark.kubectl

OBJECTS = """\
apiVersion: metal3.io/v1alpha1
kind: BareMetalHost
metadata:
  name: h1
  annotations: {baremetalhost.metal3.io/paused: metal3.io/preprovisioning}
spec:
  online: true
  bootMACAddress: "00:11:22:33:44:55"
  bmc: {address: "redfish-virtualmedia://10.0.0.1/redfish/v1/Systems/1", credentialsName: h1-bmc}
---
apiVersion: ipam.metal3.io/v1alpha1
kind: IPPool
metadata: {name: pool1}
spec:
  namePrefix: pool1
  pools: [{start: 192.168.0.10, end: 192.168.0.20}]
  prefix: 24
  gateway: 192.168.0.1
---
apiVersion: infrastructure.cluster.x-k8s.io/v1beta2
kind: Metal3DataTemplate
metadata: {name: t1}
spec:
  networkData:
    links:
      ethernets:
        - {type: phy, id: eth0, macAddress: {string: "00:11:22:33:44:55"}}
    networks:
      ipv4:
        - {id: net0, link: eth0, ipAddressFromIPPool: pool1}
"""

Kubectl = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture
def kubectl_argv(tmp_path: Path) -> Iterator[Callable[[SandboxServer], list[str]]]:
    if not KUBECTL.exists():
        pytest.fail(
            f"kubectl not found next to the interpreter ({KUBECTL}); install the "
            "test dependency group"
        )

    def argv(server: SandboxServer) -> list[str]:
        config = server.write_kubeconfig(tmp_path / "kubeconfig")
        return [str(KUBECTL), f"--kubeconfig={config}", f"--cache-dir={tmp_path / 'cache'}"]

    yield argv


@pytest.fixture
def kubectl(
    sandbox: SandboxServer,
    kubectl_argv: Callable[[SandboxServer], list[str]],
    tmp_path: Path,
    shared_crds_dir: Path,
) -> Kubectl:
    """Runs kubectl against `sandbox` after `kubectl apply`ing every upstream Metal3 CRD."""
    base = kubectl_argv(sandbox)

    def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*base, *args],
            input=stdin,
            capture_output=True,
            text=True,
            timeout=seconds(60),
            check=False,
        )

    applied = run("apply", "-f", str(shared_crds_dir / "metal3"))
    assert applied.returncode == 0, applied.stderr
    return run


def test_every_upstream_crd_applies_and_is_established(
    kubectl: Kubectl, shared_crds_dir: Path
) -> None:
    names = sorted(
        yaml.safe_load(p.read_text())["metadata"]["name"]
        for p in (shared_crds_dir / "metal3").glob("*.yaml")
    )
    waited = kubectl(
        "wait",
        "--for",
        "condition=established",
        f"--timeout={seconds(10):.0f}s",
        *(f"crd/{n}" for n in names),
    )
    assert waited.returncode == 0, waited.stderr
    listed = kubectl("get", "crds", "-o", "name")
    ours = ["clusters.cluster.x-k8s.io"]  # the sandbox's own minimal Cluster CRD (not upstream)
    assert sorted(listed.stdout.split()) == [
        f"customresourcedefinition.apiextensions.k8s.io/{n}" for n in sorted([*names, *ours])
    ]


def test_apply_get_and_defaulting(kubectl: Kubectl) -> None:
    applied = kubectl("apply", "-f", "-", stdin=OBJECTS)
    assert applied.returncode == 0, applied.stderr
    assert "baremetalhost.metal3.io/h1 created" in applied.stdout
    table = kubectl("get", "bmh")
    assert table.stdout.split("\n")[0].split()[:3] == ["NAME", "STATE", "CONSUMER"]
    assert table.stdout.split("\n")[1].split()[0] == "h1"
    template = json.loads(kubectl("get", "m3dt", "t1", "-o", "json").stdout)
    assert template["spec"]["networkData"]["links"]["ethernets"][0]["mtu"] == 1500
    again = kubectl("apply", "-f", "-", stdin=OBJECTS)
    assert "baremetalhost.metal3.io/h1 unchanged" in again.stdout


def _lines(process: subprocess.Popen[str]) -> queue.Queue[str]:
    lines: queue.Queue[str] = queue.Queue()

    def pump() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            lines.put(line)

    threading.Thread(target=pump, daemon=True).start()
    return lines


def _wait_for(lines: queue.Queue[str], needle: str, quiet_seconds: float = 10) -> str:
    deadline = time.monotonic() + seconds(quiet_seconds)
    while time.monotonic() < deadline:
        try:
            line = lines.get(timeout=max(0.01, deadline - time.monotonic()))
        except queue.Empty:
            break
        if needle in line:
            return line
    raise AssertionError(f"kubectl never printed {needle!r}")


def test_get_watch_sees_a_later_change(
    kubectl: Kubectl, sandbox: SandboxServer, kubectl_argv: Callable[[SandboxServer], list[str]]
) -> None:
    assert kubectl("apply", "-f", "-", stdin=OBJECTS).returncode == 0
    argv = [*kubectl_argv(sandbox), "get", "bmh", "-w", "--output-watch-events"]
    with subprocess.Popen(
        argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    ) as watcher:
        try:
            lines = _lines(watcher)
            _wait_for(lines, "h1")
            patched = kubectl(
                "patch", "bmh", "h1", "--type", "merge", "-p", '{"spec":{"online":false}}'
            )
            assert patched.returncode == 0, patched.stderr
            changed = _wait_for(lines, "MODIFIED")
            assert "h1" in changed and "false" in changed
        finally:
            watcher.terminate()
            watcher.wait(timeout=seconds(10))


@pytest.mark.parametrize(
    ("patch_type", "patch", "online"),
    [
        pytest.param("merge", '{"spec":{"online":false}}', False, id="merge"),
        pytest.param(
            "json",
            '[{"op":"test","path":"/spec/online","value":true},'
            '{"op":"replace","path":"/spec/online","value":false}]',
            False,
            id="json-with-test",
        ),
    ],
)
def test_patch(kubectl: Kubectl, patch_type: str, patch: str, online: bool) -> None:
    assert kubectl("apply", "-f", "-", stdin=OBJECTS).returncode == 0
    patched = kubectl("patch", "bmh", "h1", "--type", patch_type, "-p", patch)
    assert patched.returncode == 0, patched.stderr
    assert "baremetalhost.metal3.io/h1 patched" in patched.stdout
    host = json.loads(kubectl("get", "bmh", "h1", "-o", "json").stdout)
    assert host["spec"]["online"] is online


def test_failed_json_patch_test_op_is_rejected(kubectl: Kubectl) -> None:
    assert kubectl("apply", "-f", "-", stdin=OBJECTS).returncode == 0
    patched = kubectl(
        "patch",
        "bmh",
        "h1",
        "--type",
        "json",
        "-p",
        '[{"op":"test","path":"/spec/online","value":false}]',
    )
    assert patched.returncode != 0
    assert "testing value /spec/online failed: test failed" in patched.stderr


def test_delete(kubectl: Kubectl) -> None:
    assert kubectl("apply", "-f", "-", stdin=OBJECTS).returncode == 0
    deleted = kubectl("delete", "bmh", "h1", f"--timeout={seconds(20):.0f}s")
    assert deleted.returncode == 0, deleted.stderr
    assert 'baremetalhost.metal3.io "h1" deleted' in deleted.stdout
    gone = kubectl("get", "bmh", "h1")
    assert 'baremetalhosts.metal3.io "h1" not found' in gone.stderr


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        pytest.param(
            '{online: "yes"}',
            'spec.online: Invalid value: "string": spec.online in body '
            'must be of type boolean: "string"',
            id="wrong-type",
        ),
        pytest.param("{online: true, bogus: 1}", 'unknown field "spec.bogus"', id="unknown-field"),
        pytest.param(
            "{bootMode: Floppy}", 'spec.bootMode: Unsupported value: "Floppy"', id="not-in-enum"
        ),
    ],
)
def test_invalid_host_is_rejected_naming_the_field(
    kubectl: Kubectl, spec: str, message: str
) -> None:
    manifest = (
        f"apiVersion: metal3.io/v1alpha1\nkind: BareMetalHost\nmetadata: {{name: bad}}\n"
        f"spec: {spec}\n"
    )
    applied = kubectl("apply", "-f", "-", stdin=manifest)
    assert applied.returncode != 0
    assert message in applied.stderr
    assert "not found" in kubectl("get", "bmh", "bad").stderr
