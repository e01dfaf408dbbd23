"""gunicorn settings for every function image: one process, a few threads, `$PORT`.

Knative scales by adding pods, so each pod runs one worker process (one import of the
`kubernetes` client, fast cold start) with `THREADS` threads for concurrent requests.
The Knative Services set `containerConcurrency` to `concurrency` = `WORKERS * THREADS` (a
manifest test holds them equal), so queue-proxy never hands a pod more requests than it can
serve. gunicorn runs `HEALTH_THREADS` more threads than that: probes bypass queue-proxy's
limit, and with spare threads they never wait behind work (`dhcpless.limits`).
The function is chosen by the `FUNCTION` environment variable (a Knative Service name: one
of `FunctionName`, or the `dead-letter` sink, whose app takes no Kubernetes client), else by
`K_SERVICE` (the Service's name, which Serving sets); an unknown name stops the container at
start with one clear line instead of serving 404s. Every log line is one JSON object
(`dhcpless.serving.logs`) at the level `DHCPLESS_LOG_LEVEL` names (default INFO).
`worker_exit` posts the core/v1 Events still queued (`dhcpless.serving.exit_hooks`) before a
worker that stops gracefully goes, within `graceful_timeout`.
The control socket (gunicorn >= 25.1) is off, as in `dhcpless.serving.serve`: the image's user has
no writable home, and the socket would log an error at every start.
"""

from __future__ import annotations

import os

from dhcpless.serving import slim

slim.install()  # before the app imports `kubernetes` (see dhcpless.serving.slim: cold start)

from dhcpless import registry  # noqa: E402
from dhcpless.limits import HEALTH_THREADS  # noqa: E402
from dhcpless.serving import logs  # noqa: E402
from dhcpless.serving.exit_hooks import worker_exit  # noqa: E402, F401  (a gunicorn hook)
from dhcpless.serving.headguard import WORKER_CLASS  # noqa: E402

WORKERS = 1
THREADS = 4


def app_for(function: str) -> str:
    """The gunicorn app-factory string for a Knative Service name."""
    try:
        return registry.function(function).factory
    except ValueError as err:
        raise SystemExit(f"FUNCTION={err}") from None


wsgi_app = app_for(os.environ.get("FUNCTION") or os.environ.get("K_SERVICE", ""))
logconfig_dict = logs.dict_config()  # JSON lines at DHCPLESS_LOG_LEVEL (dhcpless.serving.logs)
loglevel = logs.level().lower()
bind = f"0.0.0.0:{os.environ.get('PORT', '8080')}"
workers = WORKERS
concurrency = WORKERS * THREADS  # = containerConcurrency; not a gunicorn setting
threads = THREADS + HEALTH_THREADS
worker_class = WORKER_CLASS  # gthread with a deadline on request heads (serving.headguard)
timeout = 90  # above the Services' timeoutSeconds (60): Serving, not gunicorn, cuts a request
graceful_timeout = 20
worker_tmp_dir = "/dev/shm"  # a tmpfs: the heartbeat file works with a read-only root filesystem
errorlog = "-"
control_socket_disable = True  # gunicorn >= 25.1: no control socket under a read-only $HOME
