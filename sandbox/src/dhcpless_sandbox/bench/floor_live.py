"""The loaded floor: the floor's reads and writes (`bench_floor.one_host`), sampled during the
batch by a process of its own, so they meet the same server under the same load as the functions.

Exists because the floor measured after the batch, on an idle server, compared the functions'
requests (each waiting behind the broker, the stand-ins and the other functions' requests in
the sandbox's process) with requests that waited for nothing: the ratio measured the load,
not our code. The sampler is a separate process, as each function is, with the `kubernetes`
client configured as the functions' is (`dhcpless.kube.transport.config`), under its own
identity (never counted as a function's read or write). It works on hosts of its own
namespace, paused (BMO leaves them alone) and labelled done (no source sends their events),
and reads the batch's template and pools. Between two samples it waits `PACING` times the
last sample's duration, so it adds about a fifth of one client's requests to the load it
measures.

Run by the bench as `python -m dhcpless_sandbox.bench.floor_live SHARED OWN POOLS TEMPLATE
HOSTS`; it imports and configures its client at once, starts sampling at the first line on its
stdin (the batch begins: its own start-up cost stays out of the batch), samples until its stdin is
closed (at least `MIN_SAMPLES`), then prints the per-host seconds as one JSON list.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Mapping, Sequence
from typing import Any

from kubernetes.client import ApiClient

from dhcpless import keys
from dhcpless_sandbox.bench import inventory as bench_inventory
from dhcpless_sandbox.bench.floor import Where, one_host
from dhcpless_sandbox.bench.world import ProcessWorld
from dhcpless_sandbox.demo.inventory import create, host

NAMESPACE = "bench-floor"
HOSTS = 20
PACING = 4.0
MIN_SAMPLES = 3
STOP_SECONDS = 120.0
IDENTITY, TOKEN = "bench-floor", "bench-floor-token"


def floor_hosts(count: int = HOSTS, namespace: str = NAMESPACE) -> list[dict[str, Any]]:
    """The sampler's own hosts: paused, labelled done, no role (no Metal3MachineTemplate)."""
    made = [host(index, namespace) for index in range(count)]
    for obj in made:
        obj["metadata"]["labels"] = {keys.DONE_LABEL: keys.DONE_VALUE}
    return [{"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": namespace}}, *made]


class LiveFloor:
    """The sampler process, started before the batch and stopped after it (our pid only)."""

    def __init__(self, where: Where, env: Mapping[str, str], hosts: int = HOSTS) -> None:
        self._args = [where.shared, where.own, str(where.pools), where.template, str(hosts)]
        self._env = {**os.environ, **env}
        self._process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        command = [sys.executable, "-m", "dhcpless_sandbox.bench.floor_live", *self._args]
        self._process = subprocess.Popen(
            command, env=self._env, stdin=subprocess.PIPE, stdout=subprocess.PIPE
        )

    def go(self) -> None:
        """The batch begins: start sampling."""
        if self._process is not None and self._process.stdin is not None:
            self._process.stdin.write(b"go\n")
            self._process.stdin.flush()

    def stop(self) -> list[float]:
        """Close its stdin, collect its samples (seconds per host, in order)."""
        if self._process is None:
            return []
        out, _ = self._process.communicate(input=b"", timeout=STOP_SECONDS)
        if self._process.returncode != 0:
            raise RuntimeError(f"the floor sampler exited {self._process.returncode}")
        return [float(s) for s in json.loads(out)]


def sample(where: Where, hosts: int, go: threading.Event, stop: threading.Event) -> list[float]:
    """Seconds of each host's floor from `go`, back to back but paced, until `stop` (after the
    minimum)."""
    from kubernetes import client

    from dhcpless.kube import configuration

    api = client.ApiClient(configuration())
    custom, core = client.CustomObjectsApi(api), client.CoreV1Api(api)
    go.wait()
    samples: list[float] = []
    while len(samples) < MIN_SAMPLES or not stop.is_set():
        name = f"host-{len(samples) % hosts:03d}"
        began = time.monotonic()
        one_host(custom, core, where, name, f"{name}-{len(samples)}")
        samples.append(time.monotonic() - began)
        stop.wait(samples[-1] * PACING)
    return samples


def main(argv: Sequence[str]) -> int:
    shared, own, pools, template, hosts = argv
    go, stop = threading.Event(), threading.Event()
    threading.Thread(target=_listen, args=(go, stop), daemon=True).start()
    samples = sample(Where(shared, own, int(pools), template), int(hosts), go, stop)
    print(json.dumps([round(s, 6) for s in samples]))
    return 0


def _listen(go: threading.Event, stop: threading.Event) -> None:
    """First line: go; end of input: stop (and go, if the batch never began)."""
    sys.stdin.readline()
    go.set()
    sys.stdin.read()
    stop.set()


def for_world(world: ProcessWorld, admin: ApiClient, pools: int) -> LiveFloor:
    """The sampler for the bench's world: its hosts created, its identity and kubeconfig."""
    create(admin, floor_hosts())
    world.sandbox.add_token(TOKEN, IDENTITY)
    kubeconfig = world.sandbox.write_kubeconfig(world.workdir / "floor.kubeconfig", TOKEN)
    where = Where(bench_inventory.NAMESPACE, NAMESPACE, pools, bench_inventory.TEMPLATE)
    return LiveFloor(where, {"KUBECONFIG": str(kubeconfig)})


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
