"""`nmstate-in-networkdata`: nmstate YAML under `networkData`, for a builder that reads it.

Only for a PreprovisioningImage builder that reads `networkData` as nmstate: stock BMO hands
`networkData` to Ironic, whose schema refuses nmstate (openstack/ironic
`ironic/api/controllers/v1/node.py` `validate_network_data`: the host would stay
`registering`). The rules read OpenStack data, so they run on the rendering before it is
written; afterwards only the shape can be checked, and a Secret we did not write is refused.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import yaml

from dhcpless import keys
from dhcpless.keys import NetworkDataFormat
from dhcpless.render.formats.base import load
from dhcpless.render.formats.nmstate import nmstate_text

__all__ = ["NMSTATE_IN_NETWORK_DATA", "NmstateInNetworkData"]


class NmstateInNetworkData:
    """nmstate in place of OpenStack data: needs `keys.PREPROV_IMAGE_BUILDER_ANNOTATION`."""

    name = NetworkDataFormat.NMSTATE_IN_NETWORK_DATA.value
    foreign: str | None = (
        "nmstate under networkData is only accepted from Secrets this project renders"
    )

    def texts(self, document: Mapping[str, Any]) -> dict[str, str]:
        return {keys.NETWORK_DATA_KEY: nmstate_text(document)}

    def unworkable(self, builder: bool) -> str | None:
        if builder:
            return None
        return (
            f"{keys.NETWORK_DATA_FORMAT_ANNOTATION}={self.name}: BMO without --build-preprov-image "
            "hands networkData to Ironic, whose network_data schema refuses nmstate (the host "
            f"would stay registering); use {NetworkDataFormat.NMSTATE}, or set "
            f'{keys.PREPROV_IMAGE_BUILDER_ANNOTATION}="true" if BMO runs with a builder that '
            "reads networkData as nmstate"
        )

    def shape(self, text: str) -> tuple[str | None, Any]:
        """The shape of nmstate: a mapping with a non-empty `interfaces` list."""
        try:
            state = load(text)
        except yaml.YAMLError:
            state = None
        if isinstance(state, Mapping) and isinstance(state.get("interfaces"), list):
            return (None if state["interfaces"] else "nmstate has no interfaces"), None
        return f"{keys.NETWORK_DATA_KEY} is not an nmstate document", None


NMSTATE_IN_NETWORK_DATA = NmstateInNetworkData()
