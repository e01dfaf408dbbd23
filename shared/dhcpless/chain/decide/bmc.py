"""Hosts whose BMC cannot give the ramdisk static data are never released (DESIGN §3).

Only a virtual-media boot carries the config drive with the host's network data
(`render.bmc_drivers`); a host whose BMC driver boots by PXE/iPXE would be inspected with a
ramdisk waiting for DHCP, and hang. So such a host stays paused, before any claim is made (an
address claimed for a host that cannot use it is an address lost to the pool), with one
Warning naming the driver and the virtual-media form of its address (or saying BMO has none).
A driver BMO removed, or a scheme we do not know, is refused the same way: we cannot tell how
it boots, and a wrong guess is a hang. A host without a BMC address is served: BMO leaves it
`unmanaged` and boots nothing until one is given (baremetal-operator `docs/api.md`,
"Unmanaged Hosts"); a PXE address added after its release is not caught here.
Correcting the address is an update event: the host is then served as any other.
"""

from __future__ import annotations

from dhcpless.chain.actions import RecordEvent
from dhcpless.models import BareMetalHost
from dhcpless.reasons import Reason
from dhcpless.refs import HostRef
from dhcpless.render.bmc_drivers import Boot, Driver, boot_of

__all__ = ["address_of", "decide", "refusal"]

_WAY_OUT_NONE = (
    "BMO has no virtual-media form of it: give the host a BMC address that boots from virtual "
    "media (redfish-virtualmedia://, or idrac-virtualmedia:// on Dell)"
)


def address_of(host: BareMetalHost) -> str:
    """`spec.bmc.address` ("" without BMC details)."""
    return host.spec.bmc.address if host.spec.bmc is not None else ""


def refusal(address: str) -> tuple[Reason, str] | None:
    """Pure: why a host with this BMC address must not be released, or None when it may."""
    if not address.strip():
        return None
    scheme, boot, driver = boot_of(address)
    if boot is Boot.VIRTUAL_MEDIA:
        return None
    way_out = _way_out(address, scheme, driver)
    if boot is Boot.NETWORK and driver is not None:
        how = f"boots the ramdisk by network ({driver.boot_interface}), which needs DHCP"
        text = f"BMC driver {scheme} {how}: static network data never reaches it; {way_out}"
        return Reason.BMC_BOOTS_BY_PXE, text
    if boot is Boot.REMOVED:
        return Reason.UNKNOWN_BMC_DRIVER, f"BMC driver {scheme} was removed from BMO; {way_out}"
    text = f"BMC driver {scheme} is not one BMO knows, so how it boots is unknown; {way_out}"
    return Reason.UNKNOWN_BMC_DRIVER, text


def decide(host: BareMetalHost) -> tuple[RecordEvent, ...]:
    """One Warning (the recorder writes it once) for a host we must keep paused; else ()."""
    refused = refusal(address_of(host))
    return () if refused is None else (RecordEvent(HostRef.of(host), *refused),)


def _way_out(address: str, scheme: str, driver: Driver | None) -> str:
    if driver is None or driver.virtual_media is None:
        return _WAY_OUT_NONE
    carrier = scheme.partition("+")[1:]
    rest = address.strip().partition(":")[2].removeprefix("//")
    rest = rest.rpartition("@")[2] if "@" in rest.split("/", 1)[0] else rest  # no user info
    form = f"{driver.virtual_media.value}{''.join(carrier)}://{rest}"
    if "/" not in rest:  # an IPMI-style address (removed idrac, ilo5): Redfish needs a system
        return f"use its virtual-media form: {form} plus the Redfish system path"
    return f"use its virtual-media form: {form}"
