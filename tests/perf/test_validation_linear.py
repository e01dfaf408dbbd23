"""Pre-unpause validation is linear in the document (issue 24, finding 8).

A chain of VLANs on the boot NIC, the network on its last link: the boot-MAC rule follows every
link built on the boot NIC (`render.validate_boot.carriers`), which rescanned every link once
per level (11 s of CPU at 4,000 links). Measured as CPU time (the best of a few runs, so the
other processes on a shared machine count little), 4,000 links may cost at most 5 times what
1,000 cost (linear: 4; quadratic: 16).
"""

from __future__ import annotations

import time
from typing import Any

from dhcpless.render.validate import validate_network_data
from tests.unit.test_validate import HOST, doc, phy, v4, vlan

RUNS = 5
RATIO_AT_MOST = 5.0


def _chain(links: int) -> dict[str, Any]:
    chain = [vlan("v0", "eth0"), *(vlan(f"v{i}", f"v{i - 1}") for i in range(1, links - 1))]
    return doc([phy("eth0"), *chain], [v4(link=f"v{links - 2}")])


def _cpu_seconds(document: dict[str, Any]) -> float:
    best = float("inf")
    for _ in range(RUNS):
        started = time.process_time()
        validate_network_data(document, HOST)
        best = min(best, time.process_time() - started)
    return best


def test_validation_of_4000_links_costs_at_most_5_times_1000() -> None:
    small, large = _cpu_seconds(_chain(1000)), _cpu_seconds(_chain(4000))
    print(f"validation CPU: 1000 links {small:.3f} s, 4000 links {large:.3f} s")
    assert large <= RATIO_AT_MOST * small, f"{large:.3f} s vs {small:.3f} s"
