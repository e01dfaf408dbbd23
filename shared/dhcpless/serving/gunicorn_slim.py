"""A gunicorn config module (`--config python:dhcpless.serving.gunicorn_slim`): importing it is the
serving entry point, so it installs `dhcpless.serving.slim` before the app is loaded. Its one
setting is the `worker_exit` hook (`serving.exit_hooks`: queued Events posted before the worker
goes); `sandbox.processes` passes the others on the command line."""

from dhcpless.serving import slim

slim.install()

from dhcpless.serving.exit_hooks import worker_exit  # noqa: E402

__all__ = ["worker_exit"]
