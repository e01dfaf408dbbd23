"""Which BareMetalHosts' ramdisks get no config drive: BMO's BMC driver table, the product's.

Exists apart from `bmh_status` because it reuses product logic: the BMC address schemes and how
each boots (`dhcpless.render.bmc_drivers`, read from baremetal-operator `pkg/hardwareutils/bmc`)
are the table the functions refuse PXE hosts by, so the BMO stand-in hangs exactly the hosts
the functions would have let through by mistake.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dhcpless.render.bmc_drivers import Boot, boot_of


def pxe_boot(host: Mapping[str, Any]) -> str | None:
    """Why this host's ramdisk gets no config drive (its BMC boots it by network, or by a
    driver BMO does not have), or None: virtual media, or no BMC (the sandbox boots those as
    virtual media). Ironic puts `network_data` on the ISO of a virtual-media boot only, so a
    PXE-booted ramdisk waits for DHCP: the host hangs in inspection."""
    address = str(((host.get("spec") or {}).get("bmc") or {}).get("address") or "")
    if not address.strip():
        return None
    scheme, boot, _ = boot_of(address)
    if boot is Boot.VIRTUAL_MEDIA:
        return None
    return f"BMC driver {scheme} ({boot.value}): no config drive, the ramdisk waits for DHCP"
