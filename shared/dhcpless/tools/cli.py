"""The `dhcpless` command line (DESIGN §3).

Each sub-command imports its implementation lazily, so `dhcpless serve` (what the
container runs) never pays for the sandbox, the demo or the renderer at start-up.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path

from dhcpless import keys
from dhcpless.keys import FunctionName
from dhcpless.tools.cli_args import Parser, port, positive, ramdisk_profile_option, whole
from dhcpless.tools.cli_errors import UsageError, is_user_error, problem


def _demo(args: argparse.Namespace) -> int:
    from dhcpless_sandbox.demo.logs import demo_logs

    with demo_logs():
        if args.chaos:
            from dhcpless_sandbox.demo.chaos import run_chaos_demo

            return run_chaos_demo(hosts=args.hosts, seed=args.seed, json_output=args.json)
        from dhcpless_sandbox.demo.run import run_demo
        from dhcpless_sandbox.eventing.delivery import BrokerMode
        from dhcpless_sandbox.runtime.world import WorldSettings

        settings = WorldSettings(broker_mode=BrokerMode(args.broker))
        return run_demo(hosts=args.hosts, json_output=args.json, settings=settings)


def _folder_exists(option: str, path: str) -> None:
    folder = Path(path).parent
    if not folder.is_dir():
        raise UsageError(f"{option} {path}: directory {folder} does not exist")


def _sandbox(args: argparse.Namespace) -> int:
    _folder_exists("--kubeconfig", args.kubeconfig)
    from dhcpless_sandbox.demo.logs import demo_logs
    from dhcpless_sandbox.demo.run import run_sandbox_world

    with demo_logs():  # the same world as the demo: the same one-line log
        return run_sandbox_world(port=args.port, kubeconfig=Path(args.kubeconfig))


def _serve(args: argparse.Namespace) -> int:
    from dhcpless.serving import slim

    slim.install()  # the serving entry point: before `dhcpless.serving.serve` imports `kubernetes`
    from dhcpless.serving.serve import serve_function

    return serve_function(FunctionName(args.function), port=args.port)


def _render(args: argparse.Namespace) -> int:
    from dhcpless.tools.render_cmd import run_render

    profiles = (args.ramdisk_profile, os.environ.get(keys.RAMDISK_PROFILE_ENV))
    addresses = Path(args.addresses) if args.addresses else None
    code, out, err = run_render(
        Path(args.template), Path(args.host), addresses, args.format, profiles
    )
    if out:
        sys.stdout.write(out if out.endswith("\n") else out + "\n")
    if err:
        print(err, file=sys.stderr)
    return code


def _status(args: argparse.Namespace) -> int:
    from dhcpless.tools.status.command import Output, run_status

    output = Output(args.output == "wide", args.kubeconfig, args.context)
    as_json = args.json or args.output == "json"
    if args.host:
        from dhcpless.tools.status.single import run_single

        return run_single(args.host, args.namespace, as_json, output=output)
    return run_status(namespace=args.namespace, json_output=as_json, output=output)


def _bench(args: argparse.Namespace) -> int:
    from dhcpless_sandbox.bench import figures

    if (args.plot or args.figures) and not figures.available():
        raise UsageError(f"{'--plot' if args.plot else '--figures'}: {figures.MISSING}")
    if args.figures:
        return _figures(Path(args.figures))
    from dhcpless_sandbox.bench.run import run_bench

    plot = Path(args.plot) if args.plot else None
    if args.plot:
        _folder_exists("--plot", args.plot)  # before the run, not after it
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


def _kn_commands(args: argparse.Namespace) -> int:
    from dhcpless.tools.kn_commands import run_kn_commands

    return run_kn_commands(args.filename)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser; every sub-command stores its runner in `args.run`."""
    parser = Parser(
        prog="dhcpless",
        description="Static pre-provisioning network data for Metal3 hosts, on Knative.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    _add(sub, "demo", _demo, "run the whole chain locally in an embedded sandbox (no cluster)")
    demo = sub.choices["demo"]
    demo.add_argument("--hosts", type=positive, default=10, help="hosts to register (10)")
    demo.add_argument("--json", action="store_true", help="end with one JSON summary object")
    demo.add_argument("--chaos", action="store_true", help="inject every kind of fault at once")
    demo.add_argument("--seed", type=whole, default=1, help="seed for --chaos (1)")
    _broker_option(demo)
    sandbox = _add(sub, "sandbox", _sandbox, "run the demo environment long-running, for kubectl")
    sandbox.add_argument("--port", type=port, default=0, help="API port (0: any free port)")
    sandbox.add_argument("--kubeconfig", default="sandbox.kubeconfig", help="kubeconfig to write")
    serve = _add(sub, "serve", _serve, "serve one function as a CloudEvents HTTP service")
    serve.add_argument("function", choices=[f.value for f in FunctionName])
    serve.add_argument("--port", type=port, default=8080, help="HTTP port (8080)")
    render = _add(sub, "render", _render, "render network data from Kubernetes YAML files")
    render.add_argument("--template", required=True, help="template YAML")
    render.add_argument("--host", required=True, help="BareMetalHost YAML")
    render.add_argument("--addresses", help="IPAddress YAML (multi-document)")
    render.add_argument("--format", choices=["openstack", "nmstate"], default="openstack")
    ramdisk_profile_option(render)
    status = _add(sub, "status", _status, "one line per host this project manages (KUBECONFIG)")
    status.add_argument("-n", "--namespace", help="only this namespace (default: all)")
    explain_help = "explain one host (NAMESPACE/NAME): which rule refused it, as your rights allow"
    status.add_argument("host", nargs="?", metavar="NAMESPACE/NAME", help=explain_help)
    status.add_argument("--json", action="store_true", help="print a JSON list instead")
    output_help = "wide: also the template and every address; json: as --json"
    status.add_argument("-o", "--output", choices=["wide", "json"], help=output_help)
    status.add_argument("--kubeconfig", help="kubeconfig file (default: KUBECONFIG, merged)")
    status.add_argument("--context", help="kubeconfig context (default: its current-context)")
    bench_help = "measure the chain against the minimal writes, in the sandbox"
    bench = _add(sub, "bench", _bench, bench_help)
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
    kn_help = "print kn (and kubectl) commands that create the objects of rendered manifests"
    kn = _add(sub, "kn-commands", _kn_commands, kn_help)
    kn.add_argument("filename", nargs="?", default="-", help="`kubectl kustomize` output (-)")
    return parser


def _add(
    sub: argparse._SubParsersAction[Parser],
    name: str,
    run: Callable[[argparse.Namespace], int],
    help_text: str,
) -> argparse.ArgumentParser:
    parser = sub.add_parser(name, help=help_text, description=help_text)
    parser.set_defaults(run=run)
    return parser


def _broker_option(parser: argparse.ArgumentParser) -> None:
    """Which delivery model the embedded Broker uses
    (`dhcpless_sandbox.eventing.delivery.BrokerMode`; the values are spelled here so `--help`
    needs no sandbox import)."""
    help_text = "sync: as the default Broker is installed (default); async: answer at once"
    parser.add_argument("--broker", choices=["sync", "async"], default="sync", help=help_text)


def main(argv: list[str] | None = None) -> int:
    """Run one sub-command; a problem the user can fix ends as one line, never a traceback."""
    args = build_parser().parse_args(argv)
    run: Callable[[argparse.Namespace], int] = args.run
    try:
        return run(args)
    except Exception as err:
        if not is_user_error(err):
            raise
        said = problem(err, getattr(args, "port", None), args.command)
        print(f"dhcpless {args.command}: {said}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
