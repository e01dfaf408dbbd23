"""The `dhcpless` command line (DESIGN §3). Sub-commands import their code lazily."""

from __future__ import annotations

import argparse
import sys


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="dhcpless", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    demo = sub.add_parser("demo", help="run everything locally in an embedded sandbox")
    demo.add_argument("--hosts", type=int, default=10)
    demo.add_argument("--json", action="store_true")
    sandbox = sub.add_parser("sandbox", help="run the sandbox API server for kubectl")
    sandbox.add_argument("--port", type=int, default=0)
    sandbox.add_argument("--kubeconfig", default="sandbox.kubeconfig")
    serve = sub.add_parser("serve", help="serve one function as a CloudEvents HTTP service")
    serve.add_argument("function")
    serve.add_argument("--port", type=int, default=8080)
    render = sub.add_parser("render", help="render network data from Kubernetes YAML")
    render.add_argument("--template", required=True)
    render.add_argument("--host", required=True)
    render.add_argument("--addresses")
    render.add_argument("--format", choices=["openstack", "nmstate"], default="openstack")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    print(f"dhcpless {args.command}: not implemented yet", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
