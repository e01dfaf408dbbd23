"""One action every N seconds on a daemon thread until stopped.

Exists because two stand-ins need exactly this loop: the autoscaler's reaper (`Reaper`) and the
PingSource that sends the periodic resync (`World`). Sleeping on the stop event means `stop()`
wakes the loop at once instead of waiting out the period.
"""

from __future__ import annotations

import threading
from collections.abc import Callable


class Periodic:
    """Runs `action` every `period` seconds (first run after one period) until `stop()`."""

    def __init__(self, period: float, action: Callable[[], None], name: str) -> None:
        self._period, self._action = period, action
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True, name=name)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        """Ask the loop to end and wait (up to 2 s) for a running action to finish."""
        self._stopped.set()
        if self._thread.is_alive():
            self._thread.join(timeout=2)

    def _run(self) -> None:
        while not self._stopped.wait(self._period):
            self._action()
