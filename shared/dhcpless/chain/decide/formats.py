"""Which network-data format a template asks for, and what the Secret then holds.

A template chooses with the annotation `dhcpless.metal3.io/network-data-format`
(`keys.NetworkDataFormat`); without it, OpenStack network_data.json under `networkData`, as
CAPM3 writes it. The nmstate document is always built from the OpenStack rendering
(`render.nmstate.openstack_to_nmstate`), so both carry the same MACs, addresses, routes and
DNS, and the pre-unpause rules (which read the OpenStack form) run before either is written.
The format is recorded on the Secret so that a retry compares like with like and the release
check knows what `networkData` holds.

Which formats can work depends on who consumes the Secret, which the template states with
`keys.PREPROV_IMAGE_BUILDER_ANNOTATION` (does BMO run with `--build-preprov-image`?):
* stock BMO (no builder) copies `networkData` into the Ironic node's `network_data`
  (baremetal-operator `pkg/provisioner/ironic/register.go`, `!havePreprovImgBuilder`), and
  Ironic validates it against its schema (openstack/ironic `ironic/api/controllers/v1/node.py`
  `validate_network_data`): `networkData` must be OpenStack, so `openstack` or `nmstate`;
  `nmstate-in-networkdata` would leave the host in `registering` for ever;
* with a builder BMO sets no node `network_data`; OpenShift's image-customization-controller
  reads only the key `nmstate`: `nmstate` works, and `nmstate-in-networkdata` only for a
  builder that reads `networkData` as nmstate. `openstack` alone gives such a builder nothing.
Combinations that cannot work are refused here, before anything is written.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import yaml

from dhcpless import keys
from dhcpless.chain.facts import Found
from dhcpless.keys import NetworkDataFormat
from dhcpless.models import Secret


def template_format(found: Found) -> NetworkDataFormat | str:
    """The template's format, or a short reason why it is unknown or cannot work."""
    annotations = found.template.metadata.annotations or {}
    value = annotations.get(keys.NETWORK_DATA_FORMAT_ANNOTATION, NetworkDataFormat.OPENSTACK)
    try:
        fmt = NetworkDataFormat(value)
    except ValueError:
        known = ", ".join(f.value for f in NetworkDataFormat)
        return f"annotation {keys.NETWORK_DATA_FORMAT_ANNOTATION}={value!r} is not one of: {known}"
    builder = annotations.get(keys.PREPROV_IMAGE_BUILDER_ANNOTATION, "").strip().lower() == "true"
    return unworkable(fmt, builder) or fmt


def unworkable(fmt: NetworkDataFormat, builder: bool) -> str | None:
    """Pure: why `fmt` cannot work with (`builder`) or without a PreprovisioningImage builder."""
    if fmt is NetworkDataFormat.NMSTATE_IN_NETWORK_DATA and not builder:
        return (
            f"{keys.NETWORK_DATA_FORMAT_ANNOTATION}={fmt}: BMO without --build-preprov-image "
            "hands networkData to Ironic, whose network_data schema refuses nmstate (the host "
            f"would stay registering); use {NetworkDataFormat.NMSTATE}, or set "
            f'{keys.PREPROV_IMAGE_BUILDER_ANNOTATION}="true" if BMO runs with a builder that '
            "reads networkData as nmstate"
        )
    if fmt is NetworkDataFormat.OPENSTACK and builder:
        return (
            f"{keys.NETWORK_DATA_FORMAT_ANNOTATION}={fmt} with "
            f"{keys.PREPROV_IMAGE_BUILDER_ANNOTATION}: BMO with --build-preprov-image gives "
            "Ironic no network data and OpenShift's image customization reads only the key "
            f"nmstate; use {NetworkDataFormat.NMSTATE}"
        )
    return None


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


_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load(text: str) -> Any:
    """`yaml.safe_load`, with libyaml's loader when PyYAML was built with it (same safe tag
    set, several times faster on the release path); errors are `yaml.YAMLError` either way."""
    return yaml.load(text, Loader=_LOADER)  # a safe loader (C or Python)
