"""TokenRequest: `kubectl create token SERVICEACCOUNT` against the sandbox.

k8s.io/kubernetes `pkg/registry/core/serviceaccount/storage/token.go` (`TokenREST.Create`):
`POST .../serviceaccounts/NAME/token` is create-only and stores nothing; the ServiceAccount must
exist (404 otherwise), `spec.expirationSeconds` defaults to one hour and may not be under ten
minutes (`pkg/apis/authentication/validation` `ValidateTokenRequest`), and the answer is the
TokenRequest with `status.token` and `status.expirationTimestamp`. The token here is random and
registered with the server, so requests bearing it are made as
`system:serviceaccount:NAMESPACE:NAME` and the authorize hook judges them by that name's RBAC.
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from dhcpless_sandbox.apiserver.call import Call, Response
from dhcpless_sandbox.apiserver.rbac import service_account
from dhcpless_sandbox.apiserver.status import (
    Cause,
    GroupResource,
    bad_request,
    invalid,
    method_not_allowed,
    not_found,
)

if TYPE_CHECKING:
    from dhcpless_sandbox.apiserver.server import SandboxServer

JSON = dict[str, Any]
DEFAULT_SECONDS = 3600
MIN_SECONDS = 600
API_VERSION = "authentication.k8s.io/v1"


def is_token_request(call: Call) -> bool:
    return (
        call.rt.group == ""
        and call.rt.plural == "serviceaccounts"
        and (call.info.subresource == "token")
    )


def serve(call: Call, sandbox: SandboxServer) -> Response:
    """Issue a token for the ServiceAccount named in the path."""
    info = call.info
    if info.verb != "create":
        raise method_not_allowed(info.method, GroupResource("", "serviceaccounts/token"))
    if sandbox.api.store.get(call.rt.storage_key, info.namespace, info.name) is None:
        raise not_found(GroupResource("", "serviceaccounts"), info.name)
    body = call.body() or {}
    if not isinstance(body, dict):
        raise bad_request("a TokenRequest must be an object")
    spec = dict(body.get("spec") or {})
    seconds = int(spec.get("expirationSeconds") or DEFAULT_SECONDS)
    if seconds < MIN_SECONDS:
        why = f"Invalid value: {seconds}: may not specify a duration less than 10 minutes"
        raise invalid(
            "TokenRequest",
            "authentication.k8s.io",
            info.name,
            [Cause("FieldValueInvalid", why, "spec.expirationSeconds")],
        )
    token = f"sandbox.{secrets.token_urlsafe(24)}"
    sandbox.add_token(token, service_account(info.namespace, info.name))
    now = datetime.now(UTC).replace(microsecond=0)
    expires = now + timedelta(seconds=seconds)
    spec = {"audiences": spec.get("audiences") or [], **spec, "expirationSeconds": seconds}
    meta = {"name": info.name, "namespace": info.namespace, "creationTimestamp": _time(now)}
    status = {"token": token, "expirationTimestamp": _time(expires)}
    answer = {"apiVersion": API_VERSION, "kind": "TokenRequest", "metadata": meta}
    return Response(201, {**answer, "spec": spec, "status": status})


def _time(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")
