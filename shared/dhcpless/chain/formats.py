"""Which network-data format a template asks for, and what the Secret then holds.

A template chooses with the annotation `dhcpless.metal3.io/network-data-format`
(`keys.NetworkDataFormat`); without it, OpenStack network_data.json under `networkData`, as
CAPM3 writes it. The nmstate document is always built from the OpenStack rendering
(`render.nmstate.openstack_to_nmstate`), so both carry the same MACs, addresses, routes and
DNS, and the pre-unpause rules (which read the OpenStack form) run before either is written.
The format is recorded on the Secret so that a retry compares like with like and the release
check knows what `networkData` holds.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from dhcpless import keys
from dhcpless.chain.lookup import Found
from dhcpless.keys import NetworkDataFormat
from dhcpless.models import Secret


def template_format(found: Found) -> NetworkDataFormat | str:
    """The template's format, or a short reason why its annotation is not one we know."""
    annotations = found.template.metadata.annotations or {}
    value = annotations.get(keys.NETWORK_DATA_FORMAT_ANNOTATION, NetworkDataFormat.OPENSTACK)
    try:
        return NetworkDataFormat(value)
    except ValueError:
        known = ", ".join(f.value for f in NetworkDataFormat)
        return f"annotation {keys.NETWORK_DATA_FORMAT_ANNOTATION}={value!r} is not one of: {known}"


def texts(fmt: NetworkDataFormat, document: Mapping[str, Any]) -> tuple[str, str | None]:
    """(`networkData` text, `nmstate` text or None) for the rendered OpenStack `document`."""
    openstack = json.dumps(document, sort_keys=True)
    if fmt is NetworkDataFormat.OPENSTACK:
        return openstack, None
    from dhcpless.render.nmstate import dump_nmstate, openstack_to_nmstate  # only when asked

    nmstate = dump_nmstate(openstack_to_nmstate(document))
    if fmt is NetworkDataFormat.NMSTATE:
        return openstack, nmstate
    return nmstate, None


def secret_format(secret: Secret) -> NetworkDataFormat:
    """The format recorded on a Secret (a user's Secret without the annotation: OpenStack)."""
    value = (secret.metadata.annotations or {}).get(keys.NETWORK_DATA_FORMAT_ANNOTATION, "")
    try:
        return NetworkDataFormat(value)
    except ValueError:
        return NetworkDataFormat.OPENSTACK
