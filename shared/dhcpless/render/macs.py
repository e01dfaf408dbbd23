"""MAC resolution for links, as CAPM3's getLinkMacAddress, plus one pre-inspection rule.

CAPM3 semantics (checked in this order, first variant set wins):

* `string`: taken as written.
* `fromHostInterface: <nic>`: the `mac` of the NIC with that name in
  `status.hardware.nics` (`NICs list not populated` without inspection data,
  `NIC name not found <nic>` when absent, "" when the NIC has no MAC).
* `fromAnnotation: {object, annotation}`: the annotation's value; see objects.py.

The result must look like a MAC (`aa:bb:...` or `aa-bb-...`, any case) or rendering
fails with `bad MAC address: <value>`. The value is not normalised.

**Pre-inspection rule (ours, not CAPM3's).** A paused host has never been inspected,
so `status.hardware` is absent and CAPM3 would fail every `fromHostInterface`. When
hardware data is absent *and* the template has exactly one ethernet link *and* the
host has `spec.bootMACAddress`, a `fromHostInterface` resolves to the boot MAC: with a
single NIC the boot NIC is the only candidate. Otherwise the error says to use
`macAddress.string` or `fromAnnotation` (object `baremetalhost`) instead.
"""

from __future__ import annotations

import re

from dhcpless.models.bmh import BareMetalHost
from dhcpless.models.netdata import LinkBond, LinkEthernet, Links, LinkVlan, MacAddress
from dhcpless.render.errors import RenderError
from dhcpless.render.objects import annotation_value

_MAC = re.compile(r"([0-9A-Fa-f]{2}[:-]){5}[0-9A-Fa-f]{2}")

PRE_INSPECTION_HINT = (
    "; the host has not been inspected, so fromHostInterface cannot be resolved: "
    "use macAddress.string or macAddress.fromAnnotation (object baremetalhost)"
)


def bmh_mac_by_name(name: str, host: BareMetalHost) -> str:
    """CAPM3's getBMHMacByName."""
    hardware = host.status.hardware
    if hardware is None or hardware.nics is None:
        raise RenderError("NICs list not populated")
    for nic in hardware.nics:
        if nic.name == name:
            return nic.mac
    raise RenderError(f"NIC name not found {name}")


def _from_host_interface(name: str, host: BareMetalHost, single_ethernet: bool) -> str:
    hardware = host.status.hardware
    if hardware is not None and hardware.nics is not None:
        return bmh_mac_by_name(name, host)
    if single_ethernet and host.spec.boot_mac_address:
        return host.spec.boot_mac_address
    raise RenderError("NICs list not populated" + PRE_INSPECTION_HINT)


def _raw_mac(mac: MacAddress, host: BareMetalHost, single_ethernet: bool) -> str:
    if mac.string is not None:
        return mac.string
    if mac.from_host_interface is not None:
        return _from_host_interface(mac.from_host_interface, host, single_ethernet)
    if mac.from_annotation is not None:
        return annotation_value(mac.from_annotation, host)
    return ""


def link_mac_address(
    mac: MacAddress | None, host: BareMetalHost, *, single_ethernet: bool = False
) -> str | None:
    """The link's MAC, or None when the template gives no `macAddress` at all."""
    if mac is None:
        return None
    value = _raw_mac(mac, host, single_ethernet)
    if not _MAC.fullmatch(value):
        raise RenderError(f"bad MAC address: {value}")
    return value


def boot_mac_fallbacks(links: Links, host: BareMetalHost) -> tuple[str, ...]:
    """Pure: one sentence per link whose `fromHostInterface` the pre-inspection rule resolves to
    the boot MAC, so the decision is said in an Event (the address lands on the boot NIC,
    which is wrong if the template's only ethernet link meant another NIC)."""
    hardware = host.status.hardware
    boot = host.spec.boot_mac_address
    if len(links.ethernets) != 1 or not boot or (hardware is not None and hardware.nics):
        return ()
    every: list[LinkBond | LinkEthernet | LinkVlan] = [*links.bonds, *links.ethernets]
    return tuple(
        f"link {link.id}: fromHostInterface {nic!r} taken as bootMACAddress {boot} (the host "
        "is not inspected yet and the template has one ethernet link)"
        for link in [*every, *links.vlans]
        if (nic := _fallback_nic(link.mac_address)) is not None
    )


def _fallback_nic(mac: MacAddress | None) -> str | None:
    """The NIC name `_raw_mac` would look up (its first variant set wins), else None."""
    if mac is None or mac.string is not None:
        return None
    return mac.from_host_interface
