"""The sub-commands this distribution adds to the product's `dhcpless` console script.

Each is a `Command` named in the entry-point group `dhcpless.commands` (`pyproject.toml`); the
product's `dhcpless.tools.cli_plugins` reads the group, so it never imports the sandbox. Only
argparse is imported here: `dhcpless serve` builds the same parser, and each runner imports
its world lazily.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from dhcpless.tools.cli_args import folder_exists, port, positive, whole
from dhcpless.tools.cli_errors import UsageError


@dataclass(frozen=True)
class Command:
    """What `dhcpless.tools.cli_plugins.Command` reads: help, arguments, runner."""

    help: str
    arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


def _demo(args: argparse.Namespace) -> int:
    from dhcpless_sandbox.demo.logs import demo_logs

    with demo_logs():
        if args.chaos:
            from dhcpless_sandbox.demo.chaos import run_chaos_demo

            return run_chaos_demo(hosts=args.hosts, seed=args.seed, json_output=args.json)
        from dhcpless_sandbox.demo.run import run_demo
        from dhcpless_sandbox.eventing.delivery import BrokerMode
        from dhcpless_sandbox.runtime.world_settings import WorldSettings

        settings = WorldSettings(broker_mode=BrokerMode(args.broker))
        return run_demo(hosts=args.hosts, json_output=args.json, settings=settings)


def _demo_arguments(demo: argparse.ArgumentParser) -> None:
    demo.add_argument("--hosts", type=positive, default=10, help="hosts to register (10)")
    demo.add_argument("--json", action="store_true", help="end with one JSON summary object")
    demo.add_argument("--chaos", action="store_true", help="inject every kind of fault at once")
    demo.add_argument("--seed", type=whole, default=1, help="seed for --chaos (1)")
    _broker_option(demo)


def _sandbox(args: argparse.Namespace) -> int:
    folder_exists("--kubeconfig", args.kubeconfig)
    from dhcpless_sandbox.demo.logs import demo_logs
    from dhcpless_sandbox.demo.run import run_sandbox_world

    with demo_logs():  # the same world as the demo: the same one-line log
        return run_sandbox_world(port=args.port, kubeconfig=Path(args.kubeconfig))


def _sandbox_arguments(sandbox: argparse.ArgumentParser) -> None:
    sandbox.add_argument("--port", type=port, default=0, help="API port (0: any free port)")
    sandbox.add_argument("--kubeconfig", default="sandbox.kubeconfig", help="kubeconfig to write")


def _bench(args: argparse.Namespace) -> int:
    from dhcpless_sandbox.bench import figures

    if (args.plot or args.figures) and not figures.available():
        raise UsageError(f"{'--plot' if args.plot else '--figures'}: {figures.MISSING}")
    if args.figures:
        return _figures(Path(args.figures))
    from dhcpless_sandbox.bench.run import run_bench

    plot = Path(args.plot) if args.plot else None
    if args.plot:
        folder_exists("--plot", args.plot)  # before the run, not after it
    return run_bench(
        hosts=args.hosts,
        pools=args.pools,
        json_output=args.json,
        plot=plot,
        broker=args.broker,
        chaos=args.chaos,
        record=Path(args.record) if args.record else None,
    )


def _figures(folder: Path) -> int:
    """`--figures DIR`: draw the figures of the reports saved there; no run."""
    from dhcpless_sandbox.bench import records

    if not folder.is_dir() or not any(folder.glob("*.json")):
        raise UsageError(f"--figures {folder}: no saved reports (*.json) there")
    for path in records.draw(folder):
        print(path)
    return 0


def _bench_arguments(bench: argparse.ArgumentParser) -> None:
    bench.add_argument("--hosts", type=positive, default=100, help="hosts in the batch (100)")
    bench.add_argument("--pools", type=positive, default=1, help="IP pools per host (1)")
    bench.add_argument("--json", action="store_true", help="end with one JSON report object")
    bench.add_argument("--plot", help="write a PNG of time-to-unpause per host to this file")
    bench.add_argument("--record", help="also save the JSON report in this folder")
    figures_help = "draw the figures of the reports saved in this folder (no run)"
    bench.add_argument("--figures", metavar="DIR", help=figures_help)
    _broker_option(bench)
    chaos_help = "baseline batch, then the same with every tenth host broken; p95 of the healthy"
    bench.add_argument("--chaos", action="store_true", help=chaos_help)


def _broker_option(parser: argparse.ArgumentParser) -> None:
    """Which delivery model the embedded Broker uses
    (`dhcpless_sandbox.eventing.delivery.BrokerMode`; the values are spelled here so `--help`
    needs no sandbox import)."""
    help_text = "sync: as the default Broker is installed (default); async: answer at once"
    parser.add_argument("--broker", choices=["sync", "async"], default="sync", help=help_text)


DEMO = Command(
    "run the whole chain locally in an embedded sandbox (no cluster)", _demo_arguments, _demo
)
SANDBOX = Command(
    "run the demo environment long-running, for kubectl", _sandbox_arguments, _sandbox
)
BENCH = Command(
    "measure the chain against the minimal writes, in the sandbox", _bench_arguments, _bench
)
