"""resync's memory does not grow with the fleet (issue 28): a tick holds one page of hosts and
their claims (`functions.resync.pages`), not every host and every claim.

A fleet at rest (released hosts with a claim-pools record, each with its claim: what a tick
lists and compares) of 500 hosts, then of 5,000; one tick each, in a gunicorn process of its
own as the bench starts one, its memory read as the bench reads it. The goals: at most 80 MB,
and at 5,000 hosts at most 1.1 times the 500-host value (before paging: 98.4 MB at 5,000).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import urllib3

from dhcpless import keys
from dhcpless_sandbox.apiserver.admission import WriteOptions
from dhcpless_sandbox.apiserver.server import SandboxServer
from dhcpless_sandbox.bench import coldstart
from dhcpless_sandbox.runtime.processes import ProcessSpec
from dhcpless_sandbox.runtime.wiring import ping_event
from tests.support import harness, objects

ROOT = Path(__file__).resolve().parents[2]
GOAL_MB, RATIO = 80.0, 1.1


def _released(name: str) -> dict[str, object]:
    host = objects.host(name, pause=None)
    annotations = host["metadata"]["annotations"]
    annotations[keys.RELEASED_AT_ANNOTATION] = "2026-01-01T00:00:00Z"
    annotations[keys.CLAIMED_POOLS_ANNOTATION] = f"{objects.NS}/pool4"
    host["spec"]["preprovisioningNetworkDataName"] = f"{name}{keys.SECRET_NAME_SUFFIX}"
    return host


def _grow(sandbox: SandboxServer, start: int, end: int) -> None:
    """Released hosts and their claims, written in process (admission, schema and all, but
    no HTTP: thousands of objects in seconds)."""
    hosts = sandbox.registry.lookup(keys.BMO_GROUP, keys.BMO_VERSION, "baremetalhosts")
    claims = sandbox.registry.lookup(keys.IPAM_GROUP, keys.IPAM_VERSION, "ipclaims")
    assert hosts is not None and claims is not None
    for i in range(start, end):
        name = f"host-{i:05d}"
        host = sandbox.api.create(hosts, objects.NS, _released(name), WriteOptions()).object
        claim = objects.claim(f"{name}-pool4", "pool4", host["metadata"]["uid"], host=name)
        sandbox.api.create(claims, objects.NS, claim, WriteOptions())


def hosts_key(sandbox: SandboxServer) -> Any:
    found = sandbox.registry.lookup(keys.BMO_GROUP, keys.BMO_VERSION, "baremetalhosts")
    assert found is not None
    return found.storage_key


def _tick_memory(config: Path, log: Path) -> float:
    """One tick in a gunicorn process as the bench starts it (`tools.bench.coldstart`): the
    memory (MiB, PSS of arbiter and worker, the bench's `rss_mb`) once it answered."""
    env = {"KUBECONFIG": str(config), keys.NAMESPACE_ENV: objects.NS}
    spec = ProcessSpec("functions.resync.app:create_app()", env, log)
    _, memory = coldstart.cold_start(spec, ping_event(), urllib3.PoolManager())
    return memory


def test_a_tick_of_5000_hosts_takes_no_more_memory_than_one_of_500(tmp_path: Path) -> None:
    with harness.running() as sandbox:
        config = sandbox.write_kubeconfig(tmp_path / "kubeconfig")
        _grow(sandbox, 0, 500)
        small = _tick_memory(config, tmp_path / "small.log")
        _grow(sandbox, 500, 5000)
        assert len(sandbox.store.listing(hosts_key(sandbox), objects.NS)) == 5000
        large = _tick_memory(config, tmp_path / "large.log")
    print(f"resync tick memory: {small:.1f} MB at 500 hosts, {large:.1f} MB at 5,000")
    assert large <= GOAL_MB
    assert large <= RATIO * small
