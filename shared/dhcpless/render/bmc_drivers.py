"""Which BMC drivers boot the ramdisk from virtual media: the only boot static data reaches.

Ironic puts the node's `network_data` on the config drive of the ISO it builds for a
virtual-media boot; a PXE/iPXE boot carries no config drive, so its ramdisk takes DHCP, which a
DHCP-less network does not answer, and the host hangs in inspection. Releasing such a host
cannot work, so it stays paused (`chain.decide.bmc`). The table is baremetal-operator's
(`pkg/hardwareutils/bmc/*.go`, at 02aa5059): each driver's `RegisterFactory` names (every
Redfish-based one also as `<name>+http` / `<name>+https`), its `BootInterface`,
`SupportsISOPreprovisioningImage` and `RequiresProvisioningNetwork`; the user guide's table
(metal3-docs `docs/user-guide/src/bmo/supported_hardware.md`, "Boot method") gives the
virtual-media address of each. Pure: no I/O.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

__all__ = ["DRIVERS", "BMCDriver", "Boot", "Driver", "boot_of", "scheme_of"]


class Boot(StrEnum):
    """How a driver boots the ramdisk, as far as static network data is concerned."""

    VIRTUAL_MEDIA = "virtual media"
    """An ISO Ironic builds, with the config drive on it: static data arrives."""
    NETWORK = "network boot"
    """PXE/iPXE (or UEFI HTTP boot): the firmware and the ramdisk need DHCP."""
    REMOVED = "removed from BMO"
    """A driver BMO no longer has: `NewAccessDetails` answers `UnknownBMCTypeError`."""
    UNKNOWN = "unknown"
    """A scheme no BMO we know of registers: refused, we cannot tell how it boots."""


class BMCDriver(StrEnum):
    """Every base scheme BMO registers (`RegisterFactory`) or registered until it was removed."""

    IPMI = "ipmi"
    LIBVIRT = "libvirt"
    REDFISH = "redfish"
    ILO5_REDFISH = "ilo5-redfish"
    IDRAC_REDFISH = "idrac-redfish"
    REDFISH_UEFIHTTP = "redfish-uefihttp"
    REDFISH_VIRTUALMEDIA = "redfish-virtualmedia"
    ILO5_VIRTUALMEDIA = "ilo5-virtualmedia"
    IDRAC_VIRTUALMEDIA = "idrac-virtualmedia"
    IDRAC = "idrac"
    IBMC = "ibmc"
    ILO4 = "ilo4"
    ILO4_VIRTUALMEDIA = "ilo4-virtualmedia"
    ILO5 = "ilo5"
    IRMC = "irmc"


@dataclass(frozen=True)
class Driver:
    """One driver: how it boots, and the scheme to use instead (None: BMO has none for it)."""

    boot: Boot
    boot_interface: str
    virtual_media: BMCDriver | None
    source: str
    carriers: tuple[str, ...] = ("http", "https")
    """The `+<carrier>` suffixes BMO registers (`RegisterFactory`'s `schemes`)."""


_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*")
_VM, _NET, _GONE = Boot.VIRTUAL_MEDIA, Boot.NETWORK, Boot.REMOVED
_D = BMCDriver
DRIVERS: dict[BMCDriver, Driver] = {
    # ipmi.go: ipmi and libvirt, BootInterface "ipxe", RequiresProvisioningNetwork true; IPMI
    # has no virtual media ("only network boot over iPXE is supported for IPMI", user guide)
    _D.IPMI: Driver(_NET, "ipxe", None, "ipmi.go newIPMIAccessDetails", ()),
    _D.LIBVIRT: Driver(_NET, "ipxe", None, "ipmi.go newIPMIAccessDetails", ()),
    # redfish.go: BootInterface "ipxe", SupportsISOPreprovisioningImage false
    _D.REDFISH: Driver(_NET, "ipxe", _D.REDFISH_VIRTUALMEDIA, "redfish.go redfishAccessDetails"),
    # the user guide: ilo5-* are aliases of redfish* "and should no longer be used"
    _D.ILO5_REDFISH: Driver(
        _NET, "ipxe", _D.REDFISH_VIRTUALMEDIA, "redfish.go redfishAccessDetails"
    ),
    _D.IDRAC_REDFISH: Driver(
        _NET, "ipxe", _D.IDRAC_VIRTUALMEDIA, "redfish.go redfishiDracAccessDetails"
    ),
    # redfish_https.go says RequiresProvisioningNetwork false, but the firmware's UEFI HTTP
    # boot gets its own address by DHCP (metal3-docs design/baremetal-operator/
    # uefi-http-boot.md: "it requires functional DNS, DHCP and HTTP servers"): refused
    _D.REDFISH_UEFIHTTP: Driver(
        _NET, "redfish-https", _D.REDFISH_VIRTUALMEDIA, "redfish_https.go BootInterface"
    ),
    # redfish_virtualmedia.go, idrac_virtualmedia.go: virtual-media boot interfaces,
    # SupportsISOPreprovisioningImage true, RequiresProvisioningNetwork false
    _D.REDFISH_VIRTUALMEDIA: Driver(
        _VM, "redfish-virtual-media", None, "redfish_virtualmedia.go BootInterface"
    ),
    _D.ILO5_VIRTUALMEDIA: Driver(
        _VM, "redfish-virtual-media", None, "redfish_virtualmedia.go BootInterface"
    ),
    _D.IDRAC_VIRTUALMEDIA: Driver(
        _VM, "idrac-redfish-virtual-media", None, "idrac_virtualmedia.go BootInterface"
    ),
    # removed drivers (git history of pkg/hardwareutils/bmc/): idrac.go and ibmc.go (671aaeac6),
    # ilo4.go and ilo5.go (5b5451c77), irmc.go (edac6b368); their boot interfaces were iPXE
    # but for ilo4-virtualmedia ("ilo-virtual-media")
    _D.IDRAC: Driver(_GONE, "ipxe", _D.IDRAC_VIRTUALMEDIA, "idrac.go (removed)"),
    _D.IBMC: Driver(_GONE, "ipxe", None, "ibmc.go (removed)"),
    _D.ILO4: Driver(_GONE, "ilo-ipxe", None, "ilo4.go (removed)", ("https",)),
    _D.ILO4_VIRTUALMEDIA: Driver(_GONE, "ilo-virtual-media", None, "ilo4.go (removed)", ("https",)),
    _D.ILO5: Driver(_GONE, "ilo-ipxe", _D.REDFISH_VIRTUALMEDIA, "ilo5.go (removed)", ("https",)),
    _D.IRMC: Driver(_GONE, "ipxe", None, "irmc.go (removed)", ()),
}


def scheme_of(address: str) -> str:
    """The scheme of a BMC address, as BMO parses it (`access.go` `GetParsedURL`, over Go's
    `url.Parse`): what precedes the first `:` when it is a URL scheme (a letter, then letters,
    digits, `+`, `-`, `.`), lowercased as Go does; anything else (`10.0.0.1`, `10.0.0.1:623`,
    `[fd00::1]:623`) is IPMI, BMO's default."""
    head, colon, _ = address.strip().partition(":")
    return head.lower() if colon and _SCHEME.fullmatch(head) else BMCDriver.IPMI.value


def boot_of(address: str) -> tuple[str, Boot, Driver | None]:
    """The address's driver name, how it boots, and its table row (None: not a BMO driver).
    `<driver>+http` / `+https` is the driver, for the drivers BMO registers them for."""
    scheme = scheme_of(address)
    base, plus, carrier = scheme.partition("+")
    try:
        name = BMCDriver(base)
    except ValueError:
        return scheme, Boot.UNKNOWN, None
    driver = DRIVERS[name]
    if plus and carrier not in driver.carriers:
        return scheme, Boot.UNKNOWN, None
    return scheme, driver.boot, driver
