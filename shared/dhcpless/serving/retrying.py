"""The in-process retry around every handler: what one host can cause never answers 503.

Under the default Broker a 503 holds up every event behind it on the same source for the whole
Trigger backoff (knative.md Errata 1), so a conflict on one host would stall all the others.
A handler is therefore run again here, re-reading everything, when it raised a `Transient`
that is not `ApiUnavailable` (a conflict, a failed patch precondition, an object not there yet)
— within the bound of client-go's `retry.DefaultRetry` (kubernetes/client-go
`util/retry/util.go`, `RetryOnConflict`: 5 steps, 10 ms apart, 10% jitter). When the bound is
spent the event ends as `Deferred`, an outcome (204): the next event about the host, or the
periodic resync, takes it up again. `ApiUnavailable` (and anything unexpected) still goes to
the one HTTP mapping in `web`, which answers 503.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from dhcpless.errors import Outcome, Transient
from dhcpless.kube import ApiUnavailable

log = logging.getLogger(__name__)

E = TypeVar("E")


class Deferred(Outcome):
    """A per-host transient problem outlived the in-process retries: left to the next event
    or the resync (204), instead of stalling the source behind a 503."""


@dataclass(frozen=True)
class RetryBound:
    """How often and how far apart (client-go `retry.DefaultRetry`)."""

    attempts: int = 5
    delay: float = 0.01
    jitter: float = 0.1

    def wait(self) -> float:
        return self.delay * (1.0 + self.jitter * random.random())


DEFAULT_BOUND = RetryBound()


def retrying(
    handler: Callable[[E], None],
    bound: RetryBound = DEFAULT_BOUND,
    sleep: Callable[[float], None] = time.sleep,
) -> Callable[[E], None]:
    """`handler`, run again on a per-host `Transient` until it succeeds or `bound` is spent."""

    def run(event: E) -> None:
        for attempt in range(1, bound.attempts + 1):
            try:
                return handler(event)
            except ApiUnavailable:
                raise
            except Transient as exc:
                if attempt == bound.attempts:
                    raise Deferred(f"{exc.reason} (still after {attempt} attempts)") from exc
                log.info("attempt %d: %s; running again", attempt, exc.reason)
                sleep(bound.wait())

    return run
