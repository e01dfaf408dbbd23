"""The sandbox Kubernetes API server: in-memory, HTTP on localhost, honest semantics.

from dhcpless_sandbox.apiserver.server import SandboxServer
with SandboxServer() as srv:
    srv.load_builtin_crds()
    client = srv.api_client()
"""
