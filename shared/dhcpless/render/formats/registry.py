"""Every network-data format, by the annotation value that selects it: one line each.

The order is the order `known` lists them in (an unknown annotation's Warning). A Secret
without the annotation, or with a value not listed, holds `DEFAULT` (OpenStack, as CAPM3).
"""

from __future__ import annotations

from typing import Final

from dhcpless.render.formats.base import NetworkFormat
from dhcpless.render.formats.nmstate import NMSTATE
from dhcpless.render.formats.nmstate_in_networkdata import NMSTATE_IN_NETWORK_DATA
from dhcpless.render.formats.openstack import OPENSTACK

__all__ = ["DEFAULT", "FORMATS", "known", "lookup"]

FORMATS: Final[dict[str, NetworkFormat]] = {
    OPENSTACK.name: OPENSTACK,
    NMSTATE.name: NMSTATE,
    NMSTATE_IN_NETWORK_DATA.name: NMSTATE_IN_NETWORK_DATA,
}

DEFAULT: Final[NetworkFormat] = OPENSTACK


def lookup(name: str) -> NetworkFormat | None:
    """The format `name` selects, or None when no format has that name."""
    return FORMATS.get(name)


def known() -> str:
    """The names, comma-separated, for a Warning about a value that is none of them."""
    return ", ".join(FORMATS)
