"""`run_sandbox`: the long-running form behind `dhcpless sandbox`, for kubectl users."""

from __future__ import annotations

import threading
from pathlib import Path

from dhcpless_sandbox.apiserver.server import SandboxServer


def run_sandbox(port: int, kubeconfig: Path, stop: threading.Event | None = None) -> None:
    """Serve on 127.0.0.1:`port` (0 = any) with our CRDs until Ctrl-C (or `stop` is set)."""
    server = SandboxServer(port=port)
    server.load_builtin_crds()
    with server:
        path = server.write_kubeconfig(kubeconfig).resolve()
        print(f"sandbox API server at {server.url}; kubeconfig written to {path}")
        print(f"export KUBECONFIG={path}", flush=True)
        try:
            (stop or threading.Event()).wait()
        except KeyboardInterrupt:
            print("stopping the sandbox API server")
