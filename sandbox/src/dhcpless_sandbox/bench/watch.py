"""When each host was unpaused, seen from inside the sandbox (no API request, no audit entry).

Exists so the bench can time registration-to-unpause per host without polling: polling LISTs
of a thousand hosts would load the very API server being measured. It registers a watcher on
the in-memory store and notes the first event at which a host's pause annotation is gone.
"""

from __future__ import annotations

import threading
import time

from dhcpless import keys
from dhcpless_sandbox.apiserver.server import SandboxServer
from dhcpless_sandbox.apiserver.store import Watcher


class UnpauseWatch:
    """Monotonic time at which each host of `namespace` first appeared unpaused."""

    def __init__(self, sandbox: SandboxServer, namespace: str) -> None:
        hosts = sandbox.registry.lookup(keys.BMO_GROUP, keys.BMO_VERSION, "baremetalhosts")
        if hosts is None:
            raise RuntimeError("BareMetalHost CRD not installed")
        self._store = sandbox.store
        self._watcher = Watcher(hosts.storage_key, namespace)
        self._cond = threading.Condition()
        self.unpaused: dict[str, float] = {}
        self._thread = threading.Thread(target=self._run, name="unpause-watch", daemon=True)

    def start(self) -> None:
        self._store.watch(self._watcher, since=None)
        self._thread.start()

    def stop(self) -> None:
        self._store.unwatch(self._watcher)
        self._watcher.close()
        self._thread.join()

    def wait_for(self, count: int, timeout: float) -> bool:
        """Wait until `count` hosts were unpaused; False on timeout."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while len(self.unpaused) < count and time.monotonic() < deadline:
                self._cond.wait(min(0.5, max(deadline - time.monotonic(), 0.0)))
            return len(self.unpaused) >= count

    def _run(self) -> None:
        while (event := self._watcher.events.get()) is not None:
            meta = event.object.get("metadata", {})
            if keys.PAUSED_ANNOTATION in (meta.get("annotations") or {}):
                continue
            with self._cond:
                self.unpaused.setdefault(meta.get("name", ""), time.monotonic())
                self._cond.notify_all()
