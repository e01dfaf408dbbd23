"""`SandboxServer`: the in-memory Kubernetes API on a localhost port, started in-process.

Tests start one per test (it is cheap); `run_sandbox` runs one until Ctrl-C for kubectl.
Stopping closes every watch and every connection and joins the server threads, so nothing
leaks into the next test (pytest turns ResourceWarnings into errors).
"""

from __future__ import annotations

import contextlib
import copy
import functools
import socket
import threading
from collections.abc import Callable
from http.server import ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from types import TracebackType
from typing import Any

import yaml

from dhcpless_sandbox.apiserver import crds, orphans, policies, rbac_live
from dhcpless_sandbox.apiserver.admission import WriteOptions
from dhcpless_sandbox.apiserver.api import Api
from dhcpless_sandbox.apiserver.audit import Audit
from dhcpless_sandbox.apiserver.core_kinds import core_types
from dhcpless_sandbox.apiserver.http_handler import Frontend, Handler
from dhcpless_sandbox.apiserver.kinds import Registry
from dhcpless_sandbox.apiserver.request import RequestInfo
from dhcpless_sandbox.apiserver.reviews import review_types
from dhcpless_sandbox.apiserver.status import ApiError
from dhcpless_sandbox.apiserver.store import HISTORY, Store

JSON = dict[str, Any]
INITIAL_NAMESPACES = ("default", "kube-system", "kube-public")


@functools.lru_cache(maxsize=64)
def _parsed(text: str) -> tuple[JSON, ...]:
    """Parsed once per process, by libyaml if present (worlds re-apply the same CRDs); shared."""
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    return tuple(d for d in yaml.load_all(text, Loader=loader) if d)


@functools.cache
def _builtin_crds() -> tuple[JSON, ...]:
    """Every sandbox test starts a server with these: parse them once (they are large)."""
    folder = resources.files("dhcpless_sandbox").joinpath("crds")
    files = sorted((f for f in folder.iterdir() if f.name.endswith(".yaml")), key=lambda f: f.name)
    return tuple(d for f in files for d in _parsed(f.read_text()))


class _HTTPServer(ThreadingHTTPServer):
    """Tracks open connections so `stop` can close idle keep-alive ones and join threads."""

    daemon_threads = False
    block_on_close = True

    def __init__(self, address: tuple[str, int], handler: type[Handler]) -> None:
        self.connections: set[socket.socket] = set()
        self._conn_lock = threading.Lock()
        super().__init__(address, handler)

    def process_request(self, request: Any, client_address: Any) -> None:
        with self._conn_lock:
            self.connections.add(request)
        super().process_request(request, client_address)

    def shutdown_request(self, request: Any) -> None:
        with self._conn_lock:
            self.connections.discard(request)
        super().shutdown_request(request)

    def close_connections(self) -> None:
        with self._conn_lock:
            for conn in list(self.connections):
                with contextlib.suppress(OSError):
                    conn.shutdown(socket.SHUT_RDWR)


class SandboxServer:
    """An in-memory Kubernetes API with the core kinds and CRD support."""

    def __init__(self, host: str = "127.0.0.1", port: int = 0, history: int = HISTORY) -> None:
        """`history`: how many watch events are kept for watches from a resourceVersion."""
        self.registry, self.store = Registry(), Store(history)
        self.api = Api(self.registry, self.store)
        for rt in [*core_types(), *review_types(), *rbac_live.rbac_types()]:
            self.registry.add(rt)
        crds.install(self.api)
        policies.install(self.api)
        orphans.install(self.api)  # the GC and the namespace controller
        self.audit = Audit()
        self.tokens: dict[str, str] = {}
        self.authorize: Callable[[RequestInfo], bool] = lambda info: True
        """RBAC hook: return False to answer 403 Forbidden. Allows everything by default."""
        self.fault: Callable[[RequestInfo], ApiError | None] = lambda info: None
        """Fault injection hook: return an ApiError to answer it instead of serving."""
        self._host, self._port = host, port
        self._httpd: _HTTPServer | None = None
        self._thread: threading.Thread | None = None
        namespaces = self.registry.lookup("", "v1", "namespaces")
        assert namespaces is not None
        for name in INITIAL_NAMESPACES:
            self.api.create(namespaces, "", {"metadata": {"name": name}}, WriteOptions())

    # --- lifecycle -----------------------------------------------------------------------
    def start(self) -> SandboxServer:
        handler = type("SandboxHandler", (Handler,), {"frontend": Frontend(self)})
        self._httpd = _HTTPServer((self._host, self._port), handler)
        self._thread = threading.Thread(
            target=self._httpd.serve_forever,
            kwargs={"poll_interval": 0.05},
            name="sandbox-apiserver",
            daemon=True,
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._httpd is None:
            return
        self.store.close_watchers()
        self._httpd.shutdown()
        self._httpd.close_connections()
        self._httpd.server_close()
        if self._thread is not None:
            self._thread.join()
        self._httpd, self._thread = None, None

    def __enter__(self) -> SandboxServer:
        return self.start()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()

    @property
    def address(self) -> str:
        if self._httpd is None:
            raise RuntimeError("the sandbox API server is not started")
        host, port = self._httpd.server_address[:2]
        return f"{host!s}:{port}"

    @property
    def url(self) -> str:
        return f"http://{self.address}"

    # --- content ---------------------------------------------------------------------------
    def apply_crd(self, obj: JSON) -> JSON:
        """Install (or replace) a CRD, as POSTing or `kubectl apply`ing it would."""
        rt = crds.crd_type()
        name = obj.get("metadata", {}).get("name", "")
        with self.store.lock:
            current = self.store.get(rt.storage_key, "", name)
            if current is None:
                return self.api.create(rt, "", obj, WriteOptions()).object
            body = {
                **obj,
                "metadata": {
                    **obj.get("metadata", {}),
                    "resourceVersion": current["metadata"]["resourceVersion"],
                },
            }
            return self.api.update(rt, "", name, body, WriteOptions()).object

    def apply_crd_file(self, path: Path | str) -> list[JSON]:
        docs = [d for d in _parsed(Path(path).read_text()) if d.get("kind") == crds.crd_type().kind]
        return [self.apply_crd(copy.deepcopy(d)) for d in docs]

    def load_builtin_crds(self) -> list[JSON]:
        """Our own Metal3 CRDs (`dhcpless_sandbox/crds/*.yaml`), parsed once per process."""
        return [self.apply_crd(copy.deepcopy(doc)) for doc in _builtin_crds()]

    def apply_crd_text(self, text: str) -> list[JSON]:
        return [self.apply_crd(copy.deepcopy(d)) for d in _parsed(text)]

    # --- clients ---------------------------------------------------------------------------
    def add_token(self, token: str, user: str) -> None:
        """Requests bearing `token` are made by `user` (audit and the authorize hook see it)."""
        self.tokens[token] = user

    def reset_audit(self) -> None:
        self.audit.reset()

    def api_client(self, token: str | None = None) -> Any:
        """A `kubernetes.client.ApiClient` for this server; close it when done."""
        from kubernetes import client

        config = client.Configuration(host=self.url)
        if token:
            config.api_key = {"BearerToken": token}
            config.api_key_prefix = {"BearerToken": "Bearer"}
        return client.ApiClient(config)

    def write_kubeconfig(self, path: Path | str, token: str | None = None) -> Path:
        user: JSON = {"token": token} if token else {}
        config = {
            "apiVersion": "v1",
            "kind": "Config",
            "current-context": "sandbox",
            "clusters": [{"name": "sandbox", "cluster": {"server": self.url}}],
            "users": [{"name": "sandbox", "user": user}],
            "contexts": [
                {
                    "name": "sandbox",
                    "context": {"cluster": "sandbox", "user": "sandbox", "namespace": "default"},
                }
            ],
        }
        partial = Path(path).with_name(f".{Path(path).name}.partial")  # renamed whole: whoever
        partial.write_text(yaml.safe_dump(config, sort_keys=False))  # waits never reads half
        return partial.replace(path)
