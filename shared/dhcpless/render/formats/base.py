"""What a network-data format is: the one protocol every format module implements.

A format says which Secret keys it writes from the rendered OpenStack document, what shape
`networkData` must have for the release checks, when it cannot work for the Secret's
consumer, and whether a Secret in it is judged by the pre-unpause rules (whoever wrote it)
or accepted only from Secrets this project wrote (`foreign`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Protocol

import yaml

__all__ = ["NetworkFormat", "load", "openstack_json"]


class NetworkFormat(Protocol):
    """One network-data format (`registry.FORMATS` lists them by annotation value)."""

    @property
    def name(self) -> str:
        """The annotation value (`keys.NETWORK_DATA_FORMAT_ANNOTATION`) that selects it."""
        ...

    @property
    def foreign(self) -> str | None:
        """None: a Secret in this format is released on the pre-unpause rules (run on its
        `networkData`), whoever wrote it. Else why one we did not write is refused: its data
        passed the rules in OpenStack form before we wrote it, and cannot be checked after."""
        ...

    def texts(self, document: Mapping[str, Any]) -> dict[str, str]:
        """Secret data key -> text for the rendered OpenStack `document` (always
        `keys.NETWORK_DATA_KEY`); compared as data when a retry finds the Secret."""
        ...

    def unworkable(self, builder: bool) -> str | None:
        """Why this format cannot work with (`builder`) or without a PreprovisioningImage
        builder (`keys.PREPROV_IMAGE_BUILDER_ANNOTATION`), or None when it can."""
        ...

    def shape(self, text: str) -> tuple[str | None, Any]:
        """(why `networkData` text is unusable, naming no value, or None; the document the
        pre-unpause rules read, or None when they read none)."""
        ...


_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load(text: str) -> Any:
    """`yaml.safe_load`, with libyaml's loader when PyYAML was built with it (same safe tag
    set, several times faster on the release path); errors are `yaml.YAMLError` either way."""
    return yaml.load(text, Loader=_LOADER)  # a safe loader (C or Python)


def openstack_json(document: Mapping[str, Any]) -> str:
    """The rendered OpenStack document as the `networkData` text we write (sorted keys)."""
    return json.dumps(document, sort_keys=True)
