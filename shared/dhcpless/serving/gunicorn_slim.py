"""A gunicorn config module (`--config python:dhcpless.serving.gunicorn_slim`): importing it is the
serving entry point, so it installs `dhcpless.serving.slim` before the app is loaded.
`sandbox.processes` passes the serving settings on the command line; this module sets only how
a process ends: the `worker_exit` hook (`serving.exit_hooks`: queued Events posted before the
worker goes) and no control socket.

The control socket is off, as in deploy/gunicorn_conf.py. On (gunicorn >= 25.1), it is one
path per user (`$XDG_RUNTIME_DIR` or `~/.gunicorn/gunicorn.ctl`) that every process started at
the same time takes from the others, and stopping its server thread at shutdown waits up to
2 s on each of two joins (gunicorn `ctl/server.py`, `ControlSocketServer.stop`, called first
by `Arbiter.halt`): most of the seconds a stopped process took. Older gunicorns ignore the
name (a config module's unknown names are skipped).
"""

from dhcpless.serving import slim

slim.install()

from dhcpless.serving.exit_hooks import worker_exit  # noqa: E402

__all__ = ["worker_exit"]

control_socket_disable = True
