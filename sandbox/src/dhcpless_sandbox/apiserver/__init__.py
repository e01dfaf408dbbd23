"""The sandbox Kubernetes API server: in-memory, HTTP on localhost, honest semantics.

from dhcpless_sandbox.apiserver import SandboxServer
with SandboxServer() as srv:
    srv.load_builtin_crds()
    client = srv.api_client()
"""

from dhcpless_sandbox.apiserver.audit import Audit, AuditRecord
from dhcpless_sandbox.apiserver.request import RequestInfo
from dhcpless_sandbox.apiserver.run import run_sandbox
from dhcpless_sandbox.apiserver.server import SandboxServer
from dhcpless_sandbox.apiserver.status import ApiError

__all__ = ["ApiError", "Audit", "AuditRecord", "RequestInfo", "SandboxServer", "run_sandbox"]
