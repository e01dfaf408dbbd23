"""Pure rendering: referenced pools, MAC resolution, OpenStack network_data (as CAPM3)."""

from dhcpless.render.address import Address
from dhcpless.render.errors import RenderError
from dhcpless.render.openstack import render_network_data
from dhcpless.render.pools import PoolRef, PoolUse, pool_uses, referenced_pools

__all__ = [
    "Address",
    "PoolRef",
    "PoolUse",
    "RenderError",
    "pool_uses",
    "referenced_pools",
    "render_network_data",
]
