"""No function app reads for itself (issue 29): parse, name the host, build the cause, hand
it to the pipeline; every GET and LIST is the pipeline's (`chain.gather`: the host a cause
names, the hosts a cause finds, a resync tick's pages). Each function runs against a client
that notes which source file looked up each read method, for every kind of entry: a host's
ADD and a Reference-mode update, a Metal3Data, claims answered (Resource and Reference
mode), a pool changed, a Secret written, a claim deleted, a resync tick. A static check
covers the paths no event here takes."""

from __future__ import annotations

import ast
import importlib
import inspect
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cloudevents.core.bindings.http import to_binary_event
from cloudevents.core.v1.event import CloudEvent
from flask.testing import FlaskClient

import functions
from dhcpless import keys, registry
from dhcpless.chain import gather
from dhcpless.keys import EventType
from dhcpless.kube import Kube
from dhcpless.serving.events import PING_EVENT_TYPE
from dhcpless_sandbox.apiserver.server import SandboxServer
from functions.resync.settings import ResyncSettings
from tests.support import harness, objects, scenario

HR, IF, SR, RS = "host-registration", "ipclaim-fulfilment", "secret-readiness", "resync"
READS = ("get", "find", "list", "cached", "claim_pages")
"""The adapter's read methods (`get_host`, `list_claims`, `find`, `cached_address`, ...)."""
FUNCTIONS = Path(functions.__file__).parent
GATHER = Path(gather.__file__).parent


class Recording(Kube):
    """A client that notes, for each read method looked up, the file of the frame that looked
    it up: the code that calls it, or hands it on to be called."""

    readers: list[tuple[str, Path]]

    def __getattribute__(self, name: str) -> Any:
        if name.startswith(READS):
            frame = inspect.currentframe()
            caller = frame.f_back if frame is not None else None
            if caller is not None:
                where = Path(caller.f_code.co_filename)
                object.__getattribute__(self, "readers").append((name, where))
        return object.__getattribute__(self, name)


@pytest.fixture
def world() -> Iterator[SandboxServer]:
    with harness.running() as sandbox:
        for obj in (objects.POOL4, objects.POOL6, objects.data_template(objects.DUAL)):
            harness.put(sandbox, obj)
        yield sandbox


def app(sandbox: SandboxServer, function: str) -> tuple[FlaskClient, Recording]:
    kube = Recording(sandbox.api_client(token=harness.token(function)))
    kube.readers = []
    module = importlib.import_module(registry.function(function).module)
    extra = {"resync": ResyncSettings(namespace=objects.NS)} if function == RS else {}
    return module.create_app(kube, **extra).test_client(), kube


def metal3data() -> dict[str, Any]:
    meta = {"name": "tmpl-0", "namespace": objects.NS, "uid": "data-uid"}
    spec = {"claim": {"name": "m3m-0"}, "template": {"name": "tmpl"}}
    kind = {"apiVersion": "infrastructure.cluster.x-k8s.io/v1beta1", "kind": "Metal3Data"}
    return {**kind, "metadata": meta, "spec": spec}


def ping(client: FlaskClient) -> int:
    source = "/apis/v1/namespaces/metal3/pingsources/resync"
    event = CloudEvent(attributes={"type": PING_EVENT_TYPE, "source": source}, data=None)
    message = to_binary_event(event)
    return client.post("/", headers=message.headers, data=message.body).status_code


def drive(world: SandboxServer, apps: dict[str, FlaskClient]) -> list[int]:
    """One event of every entry, in the order the chain makes them; their answers."""
    answers = []
    host = harness.put(world, objects.host())
    answers.append(harness.deliver(apps[HR], EventType.RESOURCE_ADD, host)[0])
    answers.append(harness.deliver_raw(apps[HR], EventType.REF_UPDATE, host, reference=True)[0])
    answers.append(harness.deliver(apps[HR], EventType.RESOURCE_ADD, metal3data())[0])
    with world.api_client() as api:
        for pool in ("pool4", "pool6"):
            scenario.Ipam(api).fulfil(harness.get(world, "IPClaim", f"host-0-{pool}") or {})
    first, second = (harness.get(world, "IPClaim", f"host-0-{p}") or {} for p in ("pool4", "pool6"))
    answers.append(harness.deliver(apps[IF], EventType.RESOURCE_UPDATE, first)[0])
    answers.append(harness.deliver_raw(apps[IF], EventType.REF_UPDATE, second, reference=True)[0])
    pool4 = harness.get(world, "IPPool", "pool4") or {}
    answers.append(harness.deliver(apps[IF], EventType.RESOURCE_UPDATE, pool4)[0])
    secret = harness.get(world, "Secret", "host-0" + keys.SECRET_NAME_SUFFIX) or {}
    answers.append(harness.deliver(apps[SR], EventType.RESOURCE_UPDATE, secret)[0])
    answers.append(harness.deliver(apps[IF], EventType.RESOURCE_DELETE, first)[0])
    answers.append(ping(apps[RS]))
    return answers


def test_every_read_of_every_function_is_the_pipelines(world: SandboxServer) -> None:
    made = {f: app(world, f) for f in (HR, IF, SR, RS)}
    answers = drive(world, {f: client for f, (client, _) in made.items()})
    assert answers == [204] * len(answers)
    reads = [(f, name, where) for f, (_, kube) in made.items() for name, where in kube.readers]
    assert {f for f, _, _ in reads} == {HR, IF, SR, RS}  # every function read something
    assert [r for r in reads if r[2].is_relative_to(FUNCTIONS)] == []
    gathered = {where.name for _, _, where in reads if where.is_relative_to(GATHER)}
    assert {"entry.py", "concerned.py", "fleet.py"} <= gathered


def _kube_reads(path: Path) -> list[str]:
    """`kube.<read method>` looked up in one file (called or handed on)."""
    tree = ast.parse(path.read_text(), str(path))
    return [
        f"{path.relative_to(FUNCTIONS.parent)}:{node.lineno} kube.{node.attr}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "kube"
        and node.attr.startswith(READS)
    ]


def test_no_function_module_looks_up_a_read_method() -> None:
    modules = sorted(FUNCTIONS.rglob("*.py"))
    assert len(modules) > 5
    assert [hit for module in modules for hit in _kube_reads(module)] == []
    assert _kube_reads(GATHER / "entry.py") != []  # the check sees such a lookup
