"""Closed sets of network data: what we render, how consumers read it, what we check."""

from __future__ import annotations

from enum import StrEnum
from typing import Final

__all__ = [
    "DEFAULT_PROFILE",
    "LinkKind",
    "NetworkDataFormat",
    "OpenStackNetworkType",
    "RamdiskProfile",
    "ValidationRule",
]


class OpenStackNetworkType(StrEnum):
    """`networks[].type` in OpenStack network_data.json, as CAPM3 renders them."""

    IPV4 = "ipv4"
    IPV6 = "ipv6"
    IPV4_DHCP = "ipv4_dhcp"
    IPV6_DHCP = "ipv6_dhcp"
    IPV6_SLAAC = "ipv6_slaac"


class LinkKind(StrEnum):
    """How consumers (glean, nmstate) treat a `links[]` entry: every other type is a NIC."""

    ETHERNET = "ethernet"
    BOND = "bond"
    VLAN = "vlan"


class ValidationRule(StrEnum):
    """The checks run on rendered network data before a host is unpaused."""

    DOCUMENT = "document"
    RENDER = "render"
    LINK_MAC = "link-mac"
    BOOT_MAC = "boot-mac"
    LINK_REFERENCE = "link-reference"
    LINK_CYCLE = "link-cycle"
    NAME = "name"
    ADDRESS = "address"
    ROUTE = "route"
    DNS = "dns"
    POOL_OVERLAP = "pool-overlap"
    IRONIC = "ironic"
    """What Ironic's API refuses as node `network_data` (`render.validate_ironic`)."""
    RAMDISK = "ramdisk"
    """What the declared ramdisk's network writer cannot configure (`render.profiles`)."""


class NetworkDataFormat(StrEnum):
    """What the Secret holds, chosen per template with `NETWORK_DATA_FORMAT_ANNOTATION`."""

    OPENSTACK = "openstack"
    """`networkData`: OpenStack network_data.json (what BMO hands Ironic and glean reads)."""
    NMSTATE = "nmstate"
    """Also key `nmstate`: nmstate YAML (what OpenShift's image customization reads, with BMO
    `--build-preprov-image`); `networkData` stays OpenStack, so it works with stock BMO too."""
    NMSTATE_IN_NETWORK_DATA = "nmstate-in-networkdata"
    """`networkData` holds nmstate YAML instead: only for a PreprovisioningImage builder that
    reads `networkData` as nmstate. Stock BMO hands `networkData` to Ironic, whose schema refuses
    nmstate (the host would stay `registering`), so it needs `PREPROV_IMAGE_BUILDER_ANNOTATION`."""


class RamdiskProfile(StrEnum):
    """The fleet's ramdisk network writer (`render.profiles.registry` says why it matters;
    each value has its line there)."""

    GLEAN_EL9 = "glean-el9"
    GLEAN_EL10 = "glean-el10"
    GLEAN_DEBIAN = "glean-debian"
    NMSTATE = "nmstate"

    @property
    def runs_glean(self) -> bool:
        """Whether glean writes this ramdisk's network (nmstate images do not)."""
        return self is not RamdiskProfile.NMSTATE

    @property
    def redhat(self) -> bool:
        """glean's redhat writer (`write_redhat_interfaces`) on a CentOS Stream ramdisk."""
        return self in (RamdiskProfile.GLEAN_EL9, RamdiskProfile.GLEAN_EL10)


DEFAULT_PROFILE: Final = RamdiskProfile.GLEAN_EL9
"""The community IPA ramdisk: CentOS Stream 9, glean with NetworkManager."""
