"""CAPM3 parity: our rendering is CAPM3's plus `network_id` on every network, nothing else.

The CAPM3 tables (`baremetal/metal3data_manager_test.go`) predate Ironic's requirement, so
their expected outputs have no `network_id`. `as_capm3` checks that every network carries
`network_id` equal to its own `id` (the stable value this project chose) and returns the
output without it, for comparing with CAPM3's expectation unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


def networks_as_capm3(networks: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The networks without `network_id`, after checking each has it, equal to its `id`."""
    stripped = []
    for network in networks:
        assert network["network_id"] == network["id"], network["id"]
        stripped.append({k: v for k, v in network.items() if k != "network_id"})
    return stripped


def as_capm3(document: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The whole document without `network_id` (checked first), or None for None."""
    if document is None:
        return None
    return {**document, "networks": networks_as_capm3(document["networks"])}
