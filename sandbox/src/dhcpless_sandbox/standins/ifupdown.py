"""Read back what glean wrote: which static addresses ended up on the boot NIC.

Exists apart from the ramdisk boot because it is pure and holds the one judgement BMO's stand-in
makes about network data: a host only comes up when its boot NIC (directly, through a bond it
is enslaved to, or through VLANs on either) gets a static address. glean's Debian writer is
used because ifupdown stanzas are the easiest output to parse.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class BootResult:
    """What the ramdisk's network came up with on the boot NIC."""

    addresses: tuple[str, ...]
    reason: str

    @property
    def ok(self) -> bool:
        return bool(self.addresses)


@dataclass(frozen=True)
class Stanza:
    """One `iface <name> <family> <method>` block and its indented options."""

    name: str
    method: str
    options: dict[str, str]


def parse_ifupdown(files: Mapping[str, str]) -> list[Stanza]:
    """Every iface stanza in the written files; the first value of a repeated option wins."""
    stanzas: list[Stanza] = []
    for text in files.values():
        for line in text.splitlines():
            words = line.split()
            if len(words) >= 4 and words[0] == "iface":
                stanzas.append(Stanza(words[1], words[3], {}))
            elif stanzas and line.startswith(" ") and len(words) >= 2:
                stanzas[-1].options.setdefault(words[0], " ".join(words[1:]))
    return stanzas


def boot_nic_addresses(stanzas: list[Stanza], boot_nic: str) -> BootResult:
    """Static addresses on the boot NIC itself, on a bond it is enslaved to, or on VLANs above."""
    carriers = {boot_nic} | {
        s.name for s in stanzas if boot_nic in s.options.get("post-up", "").split()[2:]
    }
    addresses = tuple(
        s.options["address"]
        for s in stanzas
        if s.method == "static" and "address" in s.options
        if s.name in carriers or s.options.get("vlan-raw-device") in carriers
    )
    if addresses:
        return BootResult(addresses, f"{boot_nic} configured with {', '.join(addresses)}")
    return BootResult((), f"no static address for the boot NIC {boot_nic} in the network data")
