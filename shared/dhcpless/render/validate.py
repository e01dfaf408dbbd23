"""Checks on rendered network data before a host is unpaused.

Rendering succeeds for many documents that leave the ramdisk unreachable: a NIC
without a MAC glean can match, a boot NIC with no static address, a gateway off-link,
two pools handing out the same addresses. Once the host is unpaused BMO boots it with
that data, and a ramdisk that cannot reach Ironic just hangs (there is no error
channel back), so every such problem is found here first, all at once.

`validate_network_data` works on the rendered OpenStack document (exactly what the
ramdisk reads); `validate_for_host` renders first. Both are pure and return every
problem found, in rule order: what Ironic's API refuses (`validate_ironic`, on the raw
document, since BMO hands it to Ironic unchanged), document shape, names (`validate_names`),
link MACs, link references, cycles, boot NIC, addresses, routes, DNS, pools, and what the
declared ramdisk's writer cannot configure (`profiles`, per `RamdiskProfile`), at most
`MAX_PROBLEMS` of them (one Event each). An empty tuple means "safe to unpause".
Messages name links, networks, addresses and pools; they hold no credentials.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from dhcpless.keys import DEFAULT_PROFILE, RamdiskProfile, ValidationRule
from dhcpless.models.base import ModelError
from dhcpless.models.bmh import BareMetalHost
from dhcpless.models.ipam import IPPool
from dhcpless.models.netdata import NetworkData
from dhcpless.render.address import Address
from dhcpless.render.errors import RenderError
from dhcpless.render.openstack import render_network_data
from dhcpless.render.osdoc import parse_rendered
from dhcpless.render.problem import Problem, bounded
from dhcpless.render.profiles.registry import ramdisk_problems
from dhcpless.render.validate_boot import boot_mac_problems
from dhcpless.render.validate_ip import address_problems, dns_problems, route_problems
from dhcpless.render.validate_ironic import ironic_problems
from dhcpless.render.validate_links import cycle_problems, mac_problems, reference_problems
from dhcpless.render.validate_names import name_problems
from dhcpless.render.validate_pools import pool_problems

__all__ = ["Problem", "ValidationRule", "validate_for_host", "validate_network_data"]


def validate_network_data(
    rendered: Mapping[str, Any],
    host: BareMetalHost,
    pools: Sequence[IPPool] = (),
    other_pools: Sequence[IPPool] = (),
    profile: RamdiskProfile = DEFAULT_PROFILE,
) -> tuple[Problem, ...]:
    """Every problem with `rendered` for `host`; `pools` are the pools it draws from;
    `profile`: the ramdisk that will boot it."""
    ironic = ironic_problems(rendered)
    try:
        doc = parse_rendered(rendered)
    except ModelError as err:
        return bounded((*ironic, Problem(ValidationRule.DOCUMENT, str(err))))
    return bounded(
        (
            *ironic,
            *name_problems(doc),
            *mac_problems(doc),
            *reference_problems(doc),
            *cycle_problems(doc),
            *boot_mac_problems(doc, host),
            *address_problems(doc),
            *route_problems(doc),
            *dns_problems(doc),
            *pool_problems(pools, other_pools),
            *ramdisk_problems(doc, profile),
        )
    )


def validate_for_host(
    network_data: NetworkData | None,
    host: BareMetalHost,
    addresses: Mapping[str, Address],
    pools: Sequence[IPPool] = (),
    other_pools: Sequence[IPPool] = (),
    profile: RamdiskProfile = DEFAULT_PROFILE,
) -> tuple[Problem, ...]:
    """Render (as CAPM3) then validate; a render failure is the one problem returned."""
    try:
        rendered = render_network_data(network_data, host, addresses)
    except RenderError as err:
        return (Problem(ValidationRule.RENDER, str(err)),)
    if rendered is None:
        return (Problem(ValidationRule.RENDER, "the template has no network data"),)
    return validate_network_data(rendered, host, pools, other_pools, profile)
