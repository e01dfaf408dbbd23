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
from dhcpless.tools import cli_plugins
from dhcpless.tools.cli_args import Parser, port, ramdisk_profile_option
from dhcpless.tools.cli_errors import is_user_error, problem
from dhcpless.tools.cli_plugins import Command


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


def _kn_commands(args: argparse.Namespace) -> int:
    from dhcpless.tools.kn_commands import run_kn_commands

    return run_kn_commands(args.filename)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser; every sub-command stores its runner in `args.run`. The sandbox's
    commands come from its distribution (`cli_plugins`), in the places they always had."""
    parser = Parser(
        prog="dhcpless",
        description="Static pre-provisioning network data for Metal3 hosts, on Knative.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    plugins = cli_plugins.installed()
    for name in ORDER:
        if name in OWN:
            OWN[name](sub)
        else:
            _plugin(sub, name, plugins.get(name) or cli_plugins.Absent(name))
    for name in sorted(set(plugins) - set(ORDER)):
        _plugin(sub, name, plugins[name])
    return parser


def _plugin(sub: argparse._SubParsersAction[Parser], name: str, command: Command) -> None:
    command.arguments(_add(sub, name, command.run, command.help))


def _serve_parser(sub: argparse._SubParsersAction[Parser]) -> None:
    serve = _add(sub, "serve", _serve, "serve one function as a CloudEvents HTTP service")
    serve.add_argument("function", choices=[f.value for f in FunctionName])
    serve.add_argument("--port", type=port, default=8080, help="HTTP port (8080)")


def _render_parser(sub: argparse._SubParsersAction[Parser]) -> None:
    render = _add(sub, "render", _render, "render network data from Kubernetes YAML files")
    render.add_argument("--template", required=True, help="template YAML")
    render.add_argument("--host", required=True, help="BareMetalHost YAML")
    render.add_argument("--addresses", help="IPAddress YAML (multi-document)")
    render.add_argument("--format", choices=["openstack", "nmstate"], default="openstack")
    ramdisk_profile_option(render)


def _status_parser(sub: argparse._SubParsersAction[Parser]) -> None:
    status = _add(sub, "status", _status, "one line per host this project manages (KUBECONFIG)")
    status.add_argument("-n", "--namespace", help="only this namespace (default: all)")
    explain_help = "explain one host (NAMESPACE/NAME): which rule refused it, as your rights allow"
    status.add_argument("host", nargs="?", metavar="NAMESPACE/NAME", help=explain_help)
    status.add_argument("--json", action="store_true", help="print a JSON list instead")
    output_help = "wide: also the template and every address; json: as --json"
    status.add_argument("-o", "--output", choices=["wide", "json"], help=output_help)
    status.add_argument("--kubeconfig", help="kubeconfig file (default: KUBECONFIG, merged)")
    status.add_argument("--context", help="kubeconfig context (default: its current-context)")


def _kn_parser(sub: argparse._SubParsersAction[Parser]) -> None:
    kn_help = "print kn (and kubectl) commands that create the objects of rendered manifests"
    kn = _add(sub, "kn-commands", _kn_commands, kn_help)
    kn.add_argument("filename", nargs="?", default="-", help="`kubectl kustomize` output (-)")


OWN: dict[str, Callable[[argparse._SubParsersAction[Parser]], None]] = {
    "serve": _serve_parser,
    "render": _render_parser,
    "status": _status_parser,
    "kn-commands": _kn_parser,
}
"""The product's own commands: what an operator runs against a cluster."""
ORDER = ("demo", "sandbox", "serve", "render", "status", "bench", "kn-commands")
"""`dhcpless --help`'s order; the names not in `OWN` are the sandbox's
(`cli_errors.SANDBOX_COMMANDS`, from `sandbox/pyproject.toml`)."""


def _add(
    sub: argparse._SubParsersAction[Parser],
    name: str,
    run: Callable[[argparse.Namespace], int],
    help_text: str,
) -> argparse.ArgumentParser:
    parser = sub.add_parser(name, help=help_text, description=help_text)
    parser.set_defaults(run=run)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one sub-command; a problem the user can fix ends as one line, never a traceback."""
    parser = build_parser()
    args, unknown = parser.parse_known_args(argv)
    if unknown and not getattr(args, cli_plugins.ANY_ARGUMENTS, False):
        parser.error(f"unrecognized arguments: {' '.join(unknown)}")
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
