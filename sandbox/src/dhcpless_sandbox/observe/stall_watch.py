"""`silent_stalls`: hosts paused for us longer than a bound with no Warning saying why.

Exists beside the Observer (same independence: it reads the API, it shares nothing with the
chain) because a stranded host that nobody explains is the failure users meet first: the
chain's rule is that every host it cannot serve carries a Warning Event. Each host counts
once: the first time it is seen paused with our value for more than `bound` seconds while no
Warning Event names it.
"""

from __future__ import annotations

import time

from kubernetes import client

from dhcpless import keys
from dhcpless_sandbox.controllers.custom_objects import CustomObjects
from dhcpless_sandbox.controllers.periodic import Periodic


class StallWatch:
    """Start before the hosts exist; `stalled` is the set of silent hosts (`count()`)."""

    def __init__(
        self, api: client.ApiClient, namespace: str, bound: float, *, period: float = 1.0
    ) -> None:
        self._hosts = CustomObjects(api, keys.BMO_GROUP, keys.BMO_VERSION)
        self._core = client.CoreV1Api(api)
        self._namespace, self._bound = namespace, bound
        self._since: dict[str, float] = {}
        self.stalled: set[str] = set()
        self._ticker = Periodic(period, self.look, "stall-watch")

    def start(self) -> None:
        self._ticker.start()

    def stop(self) -> None:
        self._ticker.stop()
        self.look()

    def count(self) -> int:
        return len(self.stalled)

    def look(self, now: float | None = None) -> None:
        """One pass: which hosts are paused for us too long, and does a Warning name them."""
        now = time.monotonic() if now is None else now
        paused = {
            h["metadata"]["name"]
            for h in self._hosts.list_items("baremetalhosts", self._namespace)
            if (h["metadata"].get("annotations") or {}).get(keys.PAUSED_ANNOTATION)
            == keys.PREPROVISIONING_PAUSE
            and not h["metadata"].get("deletionTimestamp")
        }
        self._since = {name: self._since.get(name, now) for name in paused}
        late = {n for n, t in self._since.items() if now - t >= self._bound} - self.stalled
        if late:
            self.stalled |= late - self._warned()

    def _warned(self) -> set[str]:
        events = self._core.list_namespaced_event(self._namespace).items
        return {str(e.involved_object.name) for e in events if e.type == "Warning"}
