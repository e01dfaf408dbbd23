"""`openstack`: OpenStack network_data.json under `networkData`, as CAPM3 writes it.

Stock BMO copies `networkData` into the Ironic node's `network_data` (baremetal-operator
`pkg/provisioner/ironic/register.go`, `!havePreprovImgBuilder`) and glean reads it; with a
PreprovisioningImage builder BMO sets no node `network_data` and OpenShift's image
customization reads only the key `nmstate`, so this format alone gives a builder nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from dhcpless import keys
from dhcpless.keys import NetworkDataFormat
from dhcpless.render.formats.base import load, openstack_json

__all__ = ["OPENSTACK", "OpenStack", "openstack_shape"]


class _Entry(BaseModel):
    model_config = ConfigDict(extra="allow")

    id: str = Field(min_length=1)
    type: str = Field(min_length=1)


class _Network(_Entry):
    link: str = Field(min_length=1)


class _NetworkData(BaseModel):
    model_config = ConfigDict(extra="allow")

    links: list[_Entry]
    networks: list[_Network]
    services: list[dict[str, Any]] = []


def openstack_shape(text: str) -> tuple[str | None, Any]:
    """OpenStack's shape (BMO reads `networkData` with a YAML parser: JSON and YAML pass)."""
    try:
        document = load(text)
        _NetworkData.model_validate(document)
    except (yaml.YAMLError, ValidationError):
        return f"{keys.NETWORK_DATA_KEY} is not OpenStack network data", None
    return None, document


class OpenStack:
    """The default: what every consumer without a builder reads."""

    name = NetworkDataFormat.OPENSTACK.value
    foreign: str | None = None

    def texts(self, document: Mapping[str, Any]) -> dict[str, str]:
        return {keys.NETWORK_DATA_KEY: openstack_json(document)}

    def unworkable(self, builder: bool) -> str | None:
        if not builder:
            return None
        return (
            f"{keys.NETWORK_DATA_FORMAT_ANNOTATION}={self.name} with "
            f"{keys.PREPROV_IMAGE_BUILDER_ANNOTATION}: BMO with --build-preprov-image gives "
            "Ironic no network data and OpenShift's image customization reads only the key "
            f"nmstate; use {NetworkDataFormat.NMSTATE}"
        )

    def shape(self, text: str) -> tuple[str | None, Any]:
        return openstack_shape(text)


OPENSTACK = OpenStack()
