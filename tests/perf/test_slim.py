"""What makes a cold start cheaper, checked where it matters.

Covers: importing `dhcpless.serving.slim` (or the library) installs nothing, and `kubernetes` then
imports as usual; once installed, a function's module loads without `kubernetes.config`, nor
the core API's models, and `kubernetes.config` is still there when asked for; a function served
as a real gunicorn process (the bench's and the images' way, shim installed) answers its probe
event with 204 and reads the API as itself; a host marked done costs host-registration no read
even without the source's selector.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import urllib3

from dhcpless import keys
from dhcpless.keys import EventType, FunctionName
from dhcpless_sandbox.apiserver.server import SandboxServer
from dhcpless_sandbox.bench import coldstart as bench_coldstart
from dhcpless_sandbox.runtime.processes import ProcessSpec
from tests.support import harness, objects
from tests.support.waits import seconds

ROOT = Path(__file__).resolve().parents[2]

LIBRARY_ONLY = """
import sys
from dhcpless.serving import slim
import functions.secret_readiness.app
assert not slim.installed()
assert "kubernetes.config" in sys.modules  # the real package's eager imports ran
"""

INSTALLED = """
import sys
from dhcpless.serving import slim
assert slim.install() and slim.installed()
import functions.ipclaim_fulfilment.app
import functions.host_registration.app
loaded = set(sys.modules)
assert "kubernetes.config" not in loaded and "kubernetes.watch" not in loaded, "eager"
assert "kubernetes.client.api.core_v1_api" not in loaded, "CoreV1Api"
import kubernetes
assert kubernetes.config.load_kube_config  # still there, imported on first use
assert not slim.install()  # once is enough
"""


def python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=seconds(120)
    )


@pytest.mark.parametrize(
    "code",
    [pytest.param(LIBRARY_ONLY, id="library-import"), pytest.param(INSTALLED, id="installed")],
)
def test_slim_import(code: str) -> None:
    done = python(code)
    assert done.returncode == 0, done.stderr[-2000:]


@pytest.mark.e2e
def test_served_function_answers_as_itself(tmp_path: Path) -> None:
    with harness.running() as sandbox:
        token = harness.IDENTITIES["secret-readiness"]
        kubeconfig = sandbox.write_kubeconfig(tmp_path / "kubeconfig", token)
        env = {"KUBECONFIG": str(kubeconfig)}
        spec = ProcessSpec("functions.secret_readiness.app:create_app()", env, tmp_path / "log")
        event = bench_coldstart.probe(FunctionName.SECRET_READINESS, objects.NS, sandbox.url)
        seconds, memory = bench_coldstart.cold_start(spec, event, urllib3.PoolManager())
        reads = [r for r in harness.audit_of(sandbox, "secret-readiness") if r.verb == "get"]
    assert seconds > 0 and memory > 0
    assert [r.resource for r in reads] == ["secrets"]  # its probe's one read, as itself


def test_done_host_costs_no_read(sandbox: SandboxServer) -> None:
    host = objects.host("done-0", pause=None)
    host["metadata"]["labels"] = {keys.DONE_LABEL: keys.DONE_VALUE}
    host["metadata"]["annotations"][keys.RELEASED_AT_ANNOTATION] = "2026-01-01T00:00:00Z"
    host["status"] = {"provisioning": {"state": "available"}}
    client = harness.client(sandbox, "host-registration")
    assert harness.deliver(client, EventType.RESOURCE_UPDATE, host) == (204, "")
    assert harness.audit_of(sandbox, "host-registration") == []


@pytest.fixture
def sandbox() -> Iterator[SandboxServer]:
    with harness.running() as started:
        yield started
