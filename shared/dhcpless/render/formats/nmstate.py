"""`nmstate`: OpenStack `networkData` plus the key `nmstate` (nmstate YAML).

The nmstate document is built from the OpenStack rendering (`render.nmstate`), so both carry
the same MACs, addresses, routes and DNS. OpenShift's image customization reads the key
`nmstate` (with BMO `--build-preprov-image`); `networkData` stays OpenStack, so stock BMO,
Ironic and glean read it as they read `openstack`: it works with or without a builder.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dhcpless import keys
from dhcpless.keys import NetworkDataFormat
from dhcpless.render.formats.base import openstack_json
from dhcpless.render.formats.openstack import openstack_shape

__all__ = ["NMSTATE", "Nmstate", "nmstate_text"]


def nmstate_text(document: Mapping[str, Any]) -> str:
    """The nmstate YAML for the rendered OpenStack `document`."""
    from dhcpless.render.nmstate import dump_nmstate, openstack_to_nmstate  # only when asked

    return dump_nmstate(openstack_to_nmstate(document))


class Nmstate:
    """Both forms: one Secret for stock BMO and for OpenShift's image builder."""

    name = NetworkDataFormat.NMSTATE.value
    foreign: str | None = None

    def texts(self, document: Mapping[str, Any]) -> dict[str, str]:
        return {
            keys.NETWORK_DATA_KEY: openstack_json(document),
            keys.NMSTATE_KEY: nmstate_text(document),
        }

    def unworkable(self, builder: bool) -> str | None:
        return None

    def shape(self, text: str) -> tuple[str | None, Any]:
        return openstack_shape(text)


NMSTATE = Nmstate()
