"""`dhcpless demo` and `dhcpless sandbox`: the whole chain on one machine, no cluster.

The demo creates a small inventory (`demo_inventory`), half of its hosts without the pause
annotation through the admission policy (`demo_policy`), lets the world run, shows progress on
stderr, and ends with a per-host table and a summary, or one JSON object (`demo_report`). It
fails (exit 1) when any host is stranded: not `available` by the deadline.
"""

from __future__ import annotations

import json
import signal
import sys
import threading
import time
from pathlib import Path

from dhcpless_sandbox.apiserver.rbac_live import LiveAuthorizer
from dhcpless_sandbox.demo.inventory import inventory
from dhcpless_sandbox.demo.policy import create_through_policy
from dhcpless_sandbox.demo.report import HostRow, Progress, observe, print_table, report
from dhcpless_sandbox.runtime.world import World
from dhcpless_sandbox.runtime.world_settings import EVERY_NAMESPACE, WorldSettings

_POLL = 0.5
"""Seconds between progress polls (each LISTs every host: see `report.observe`)."""


def wait_for_hosts(world: World, hosts: int, deadline: float, progress: Progress) -> list[HostRow]:
    """Poll until `hosts` hosts are all `available`, or `deadline` seconds have passed."""
    started = time.monotonic()
    api = world.api_client()
    while True:
        rows, seconds = observe(api, addresses=False), time.monotonic() - started
        done = len(rows) >= hosts and all(row.state == "available" for row in rows)
        if done or seconds >= deadline:
            progress.show(rows, seconds, final=True)
            return observe(api)  # with their IPs
        progress.show(rows, seconds)
        time.sleep(_POLL)


def run_demo(
    hosts: int,
    json_output: bool,
    *,
    deadline: float | None = None,
    settings: WorldSettings | None = None,
) -> int:
    """Run the demo; 0 when every host reached `available`, 1 when any is stranded."""
    if hosts < 1:
        print("dhcpless demo: --hosts must be at least 1", file=sys.stderr)
        return 2
    world = World(settings or WorldSettings())
    world.start()
    try:
        if not json_output:  # a setting of the run: said before the bar, not read as a result
            print(f"broker: {world.broker.mode.value} delivery", flush=True)
        started = time.monotonic()
        note = create_through_policy(world.api_client(), inventory(hosts))
        rows = wait_for_hosts(world, hosts, deadline or 30.0 + hosts * 0.5, Progress(sys.stderr))
        summary = report(rows, world, time.monotonic() - started, hosts)
    finally:
        world.stop()
    summary["policy"] = note.as_json()
    if json_output:
        print(json.dumps(summary, sort_keys=True))
    else:
        print_table(rows, summary, sys.stdout)
        print(note.line())
    return 1 if summary["stranded"] else 0


READY_LINE = "ready: the API server answers and the chain is running"
"""What `dhcpless sandbox` prints on stdout once kubectl can be used (the README waits on it)."""

EXAMPLES_NAMESPACE = "metal3-demo"
"""The namespace of `examples/`, resync's own."""


def sandbox_settings(port: int) -> WorldSettings:
    """`dhcpless sandbox`'s world: its sources watch every namespace, so resync serves every
    namespace too (the cluster-wide layout, `deploy/cluster-wide`, with a selector that
    selects them all): a host in a namespace of its own is re-driven, and warned about, as
    one in `metal3-demo` is."""
    return WorldSettings(
        port=port, namespace=EXAMPLES_NAMESPACE, namespace_selector=EVERY_NAMESPACE
    )


def run_sandbox_world(
    port: int, kubeconfig: str | Path, *, stop: threading.Event | None = None
) -> int:
    """Run the world until SIGINT/SIGTERM (or `stop`); write a kubeconfig for kubectl."""
    stop = stop or threading.Event()
    if threading.current_thread() is threading.main_thread():
        # Before anything starts: a stop asked for during start-up still stops the world
        # (and its function processes) instead of killing this process and orphaning them.
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, lambda *_: stop.set())
    world = World(sandbox_settings(port))
    world.start()
    # RBAC as a cluster enforces it, for everyone but the kubeconfig's admin: Roles and
    # bindings created in the sandbox decide what `--as USER` and created tokens may do.
    world.sandbox.authorize = LiveAuthorizer(world.sandbox.store)
    try:
        world.sandbox.write_kubeconfig(kubeconfig)
        print(f"sandbox API server: {world.sandbox.url}", flush=True)
        print(f"kubeconfig: {Path(kubeconfig).resolve()}", flush=True)
        print(f"broker: {world.broker.mode.value} delivery", flush=True)
        print(
            f"try: kubectl --kubeconfig {kubeconfig} apply -f examples/ && "
            f"kubectl --kubeconfig {kubeconfig} get bmh -A -w",
            file=sys.stderr,
            flush=True,
        )
        print(READY_LINE, flush=True)  # last: scripts wait for it before the first kubectl
        while not stop.wait(0.5):  # short waits: the main thread runs a signal's handler soon
            pass
    finally:
        world.stop()
    return 0
