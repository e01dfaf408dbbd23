"""A gunicorn config module (`--config python:dhcpless.serving.gunicorn_slim`): importing it is the
serving entry point, so it installs `dhcpless.serving.slim` before the app is loaded. It sets no
gunicorn setting; `sandbox.processes` passes its own on the command line."""

from dhcpless.serving import slim

slim.install()
