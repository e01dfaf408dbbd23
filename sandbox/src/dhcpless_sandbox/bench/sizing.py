"""How long the bench waits for each phase, by fleet size (issue 28: a 5,000-host batch).

Every wait is a deadline on a condition (the run goes on as soon as it holds), so a generous
one costs nothing on a fast run; what it must not do is end a large run that is still making
progress. Measured on the 2-core machine under the synchronous broker: about 15 hosts/s
unpaused and 10 hosts/s reaching `available`, at 500 to 2,000 hosts; the deadlines give
those rates three to five times over. The pools (`bench.inventory`) are /16 and /64: 65,000
addresses and more, far beyond any batch here.
"""

from __future__ import annotations

from typing import Final

UNPAUSE_BASE, UNPAUSE_PER_HOST = 60.0, 0.5
SETTLE_BASE, SETTLE_PER_HOST = 600.0, 0.3
REST_BASE, REST_PER_HOST = 300.0, 0.05
SETUP_QUIET_SECONDS: Final = 120.0


def unpause_seconds(hosts: int) -> float:
    """From the first host's creation until every host is unpaused (5,000: 2,560 s)."""
    return UNPAUSE_BASE + UNPAUSE_PER_HOST * hosts


def settle_seconds(hosts: int) -> float:
    """Until every host is `available` after the batch (5,000: 2,100 s)."""
    return SETTLE_BASE + SETTLE_PER_HOST * hosts


def rest_seconds(hosts: int) -> float:
    """Until each status rewrite at rest reached a function or all went quiet (5,000: 550 s)."""
    return REST_BASE + REST_PER_HOST * hosts
