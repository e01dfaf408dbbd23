"""HTTP/1.1 framing: keep-alive, JSON bodies, chunked watch streams, Status on every error.

`Frontend.serve` is the one place a request passes through, in the real server's filter order:
authentication (bearer token -> identity), request info, audit, fault injection, authorization,
then the handler.
"""

from __future__ import annotations

import json
import logging
import select
import socket
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler
from typing import TYPE_CHECKING, Any

from dhcpless_sandbox.apiserver import nonresource, request, reviews, routes, tokens
from dhcpless_sandbox.apiserver.audit import AuditRecord
from dhcpless_sandbox.apiserver.call import Call, Response
from dhcpless_sandbox.apiserver.request import RequestInfo
from dhcpless_sandbox.apiserver.status import ApiError, GroupResource, forbidden, internal

if TYPE_CHECKING:
    from dhcpless_sandbox.apiserver.server import SandboxServer

log = logging.getLogger(__name__)
JSON = dict[str, Any]


def _forbidden(info: RequestInfo) -> ApiError:
    where = f' in the namespace "{info.namespace}"' if info.namespace else ""
    why = (
        f'User "{info.identity}" cannot {info.verb} resource "{info.resource}" in API group '
        f'"{info.api_group}"{where}'
    )
    return forbidden(GroupResource(info.api_group, info.resource), info.name, why)


def impersonated(identity: str, headers: dict[str, str], checked: bool | None = None) -> str:
    """`Impersonate-User` (kubectl --as), honoured for callers outside RBAC (the admin), as
    k8s.io/apiserver `pkg/endpoints/filters/impersonation.go` honours it for callers allowed
    the `impersonate` verb. ServiceAccounts here hold no such right, nor does anyone the
    authorize hook judges (`checked`; unknown: the ServiceAccounts): a 403, as upstream."""
    wanted = headers.get("impersonate-user", "")
    if not wanted:
        return identity
    if identity.startswith("system:serviceaccount:") and checked is None:
        return identity
    if checked:
        why = f'User "{identity}" cannot impersonate resource "users" in API group ""'
        raise forbidden(GroupResource("", "users"), wanted, why)
    return wanted


class Frontend:
    """Request pipeline shared by every connection of one SandboxServer."""

    def __init__(self, sandbox: SandboxServer) -> None:
        self.sandbox = sandbox

    def identity(self, authorization: str) -> str:
        scheme, _, token = authorization.partition(" ")
        if scheme.lower() == "bearer" and token:
            return self.sandbox.tokens.get(token.strip(), "admin")
        return "admin"

    def serve(
        self,
        method: str,
        target: str,
        headers: dict[str, str],
        raw: bytes,
        closed: Callable[[], bool],
    ) -> Response | str:
        who = self.identity(headers.get("authorization", ""))
        checks = getattr(self.sandbox.authorize, "checks", None)
        checked = bool(checks(who)) if callable(checks) else None
        info = request.parse(method, target, impersonated(who, headers, checked))
        if not info.is_resource:
            self.sandbox.audit.record_non_resource()
            return self._non_resource(info)
        self.sandbox.audit.record(
            AuditRecord(
                info.identity,
                info.verb,
                info.api_group,
                info.resource,
                info.subresource,
                info.namespace,
                info.name,
                info.query.get("labelSelector", ""),
            )
        )
        if (fault := self.sandbox.fault(info)) is not None:
            raise fault
        rt = self.sandbox.registry.lookup(info.api_group, info.api_version, info.resource)
        if not (rt is not None and reviews.is_review(rt)) and not self.sandbox.authorize(info):
            raise _forbidden(info)
        if rt is None:
            raise ApiError(404, "NotFound", "the server could not find the requested resource")
        call = Call(
            info,
            rt,
            headers.get("content-type", "application/json"),
            headers.get("accept", ""),
            raw,
            closed,
            headers.get("user-agent", ""),
        )
        if reviews.is_review(rt):
            return reviews.serve(call, self.sandbox.authorize)
        if tokens.is_token_request(call):
            return tokens.serve(call, self.sandbox)
        return routes.dispatch(self.sandbox.api, call)

    def _non_resource(self, info: RequestInfo) -> Response | str:
        if info.method != "GET":
            raise ApiError(405, "MethodNotAllowed", "the server does not allow this method")
        found = nonresource.serve(self.sandbox.registry, info.path, self.sandbox.address)
        return found if isinstance(found, str) else Response(200, found)


WATCH_SEND_BUFFER = 4096
"""Bytes of socket send buffer for a watch stream when watches are bounded."""


class Handler(BaseHTTPRequestHandler):
    """One connection; requests on it are served one after another (keep-alive)."""

    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True
    frontend: Frontend  # set on the subclass made per server

    def do_GET(self) -> None:
        self._handle()

    do_POST = do_PUT = do_PATCH = do_DELETE = do_GET

    def log_message(self, format: str, *args: Any) -> None:
        log.debug("%s " + format, self.address_string(), *args)

    def _closed(self) -> bool:
        """True once the client hung up (readable, but nothing to read)."""
        try:
            readable, _, _ = select.select([self.connection], [], [], 0)
            return bool(readable) and self.connection.recv(1, socket.MSG_PEEK) == b""
        except (OSError, ValueError):
            return True

    def _handle(self) -> None:
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        headers = {k.lower(): v for k, v in self.headers.items()}
        try:
            result = self.frontend.serve(self.command, self.path, headers, raw, self._closed)
        except ApiError as error:
            result = Response(error.code, error.status())
        except Exception as error:  # the server must answer; the client sees a 500 Status
            log.exception("sandbox apiserver: %s %s failed", self.command, self.path)
            failure = internal(type(error).__name__)
            result = Response(failure.code, failure.status())
        if isinstance(result, str):
            self._send(200, result.encode(), "text/plain; charset=utf-8", [])
        elif result.stream is not None:
            self._stream(result)
        else:
            self._send(
                result.code, json.dumps(result.body).encode(), "application/json", result.warnings
            )

    def _send(self, code: int, body: bytes, content_type: str, warnings: list[str]) -> None:
        self.send_response(code)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for warning in warnings:
            self.send_header("Warning", f'299 - "{warning}"')
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _stream(self, result: Response) -> None:
        assert result.stream is not None
        if self.frontend.sandbox.store.watch_limit is not None:  # bounded watches: a small
            # send buffer, so a client that stops reading fills its watcher's queue in a few
            # events (a cluster's buffers are larger, its event rate too)
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, WATCH_SEND_BUFFER)
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        try:
            for chunk in result.stream:
                self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                self.wfile.flush()
            self.wfile.write(b"0\r\n\r\n")
            self.wfile.flush()
        except OSError:
            self.close_connection = True
