"""Which network-data format a template asks for, and what the Secret then holds.

A template chooses with the annotation `dhcpless.metal3.io/network-data-format`
(`render.formats.registry`: one module per format); without it, OpenStack
network_data.json under `networkData`, as CAPM3 writes it. The nmstate document is always
built from the OpenStack rendering (`render.nmstate.openstack_to_nmstate`), so both carry the
same MACs, addresses, routes and DNS, and the pre-unpause rules (which read the OpenStack
form) run before either is written. The format is recorded on the Secret so that a retry
compares like with like and the release check knows what `networkData` holds.

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
Combinations that cannot work (each format's `unworkable`) are refused here, before anything
is written.
"""

from __future__ import annotations

from dhcpless import keys
from dhcpless.chain.facts import Found
from dhcpless.models import Secret
from dhcpless.render.formats import registry
from dhcpless.render.formats.base import NetworkFormat


def template_format(found: Found) -> NetworkFormat | str:
    """The template's format, or a short reason why it is unknown or cannot work."""
    annotations = found.template.metadata.annotations or {}
    value = annotations.get(keys.NETWORK_DATA_FORMAT_ANNOTATION, registry.DEFAULT.name)
    fmt = registry.lookup(value)
    if fmt is None:
        known = registry.known()
        return f"annotation {keys.NETWORK_DATA_FORMAT_ANNOTATION}={value!r} is not one of: {known}"
    builder = annotations.get(keys.PREPROV_IMAGE_BUILDER_ANNOTATION, "").strip().lower() == "true"
    return fmt.unworkable(builder) or fmt


def secret_format(secret: Secret) -> NetworkFormat:
    """The format recorded on a Secret (a user's Secret without the annotation: OpenStack)."""
    value = (secret.metadata.annotations or {}).get(keys.NETWORK_DATA_FORMAT_ANNOTATION, "")
    return registry.lookup(value) or registry.DEFAULT
