"""`dhcpless serve FUNCTION [--port P]`: one function as a CloudEvents HTTP service.

This is what the container image runs. The Kubernetes client is configured from KUBECONFIG
(or ~/.kube/config) when present, else from the in-cluster service account. gunicorn serves the
app (one worker, a few threads: Knative's containerConcurrency is set to match), logging to
stderr; `app_for` is also a WSGI factory for running gunicorn directly:
`gunicorn 'dhcpless.serving.serve:app_for("host-registration")'`.
"""

from __future__ import annotations

import logging
from typing import Any

from flask import Flask
from gunicorn.app.base import BaseApplication  # type: ignore[import-untyped]

from dhcpless.keys import FunctionName
from dhcpless.kube import Kube, from_environment
from dhcpless.limits import HEALTH_THREADS
from dhcpless.serving.exit_hooks import worker_exit
from dhcpless.serving.headguard import WORKER_CLASS
from dhcpless.settings import Settings

THREADS = 4


def app_for(
    function: FunctionName | str, kube: Kube | None = None, settings: Settings | None = None
) -> Flask:
    """The function's Flask app (ValueError for a name that is not a function)."""
    name = FunctionName(function)
    from functions.apps import create_app  # the product's one factory; lazily: a pod serves one

    return create_app(name.value, kube or from_environment(name.value), settings)


class _Gunicorn(BaseApplication):  # type: ignore[misc]  # gunicorn ships no type hints
    def __init__(self, app: Flask, options: dict[str, Any]) -> None:
        self.application, self.options = app, options
        super().__init__()

    def load_config(self) -> None:
        for key, value in self.options.items():
            self.cfg.set(key, value)

    def load(self) -> Flask:
        return self.application


def serve_function(function: FunctionName, port: int = 8080, host: str = "0.0.0.0") -> int:
    """Serve until stopped; returns the process exit code."""
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    options = {
        "bind": f"{host}:{port}",
        "workers": 1,
        "threads": THREADS + HEALTH_THREADS,  # spare threads: probes never wait
        "worker_class": WORKER_CLASS,  # gthread, with a deadline on request heads
        "accesslog": "-",
        "control_socket_disable": True,  # no socket under $HOME: images run read-only
        "worker_exit": worker_exit,  # queued Events posted before the worker goes
    }
    _Gunicorn(app_for(function), options).run()
    return 0
