"""The sandbox Kubernetes API server: in-memory, HTTP on localhost, honest semantics.

from dhcpless.sandbox.apiserver import SandboxServer
with SandboxServer() as srv:
    srv.load_builtin_crds()
    client = srv.api_client()
"""

from dhcpless.sandbox.apiserver.audit import Audit, AuditRecord
from dhcpless.sandbox.apiserver.request import RequestInfo
from dhcpless.sandbox.apiserver.run import run_sandbox
from dhcpless.sandbox.apiserver.server import SandboxServer
from dhcpless.sandbox.apiserver.status import ApiError

__all__ = ["ApiError", "Audit", "AuditRecord", "RequestInfo", "SandboxServer", "run_sandbox"]
