"""NAME rule: every name and value the ramdisk turns into an interface, a file or a config line.

glean names a bond's interface after its link `id` and a VLAN's `<parent>.<vlan_id>`, writes
`/etc/network/interfaces.d/<name>.cfg`, and copies `bond_mode`, the xmit hash policy and bond
options into that file verbatim (glean `cmd.py` `write_debian_interfaces`,
`get_config_drive_interfaces`; glean 1.25.1 writes no `mtu`: `profiles.glean`). A bond id
`../../x` therefore writes outside the directory, and a newline in a value adds config lines
(ifupdown runs `pre-up` lines as shell). So, as the kernel accepts them (linux `net/core/dev.c`
`dev_valid_name`: at most 15 bytes, not `.` or `..`, no `/`, `:` or whitespace) and narrower
where glean writes files and shell-read config:

* link ids (all links) and interface names: `[A-Za-z0-9_.-]`, not `.` or `..`; bond ids and
  names, and a bond's VLAN interface `<bond>.<vlan_id>`, at most 15 characters;
* `mtu` 68..65535 (the kernel's IPv4 minimum and the 16-bit maximum: what a writer that does
  write it, nmstate or the installed OS, could apply);
* `vlan_id` 1..4094 (802.1Q; 0 and 4095 are reserved);
* `bond_mode` one of the kernel bonding driver's modes (`drivers/net/bonding`), the xmit hash
  policy one of its policies, and bond option names `[a-z_]` with values `[A-Za-z0-9_.:+-]`.

One Problem per link at most (its first bad field), so a document's problems are linear in it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

from pydantic import JsonValue

from dhcpless.keys import LinkKind, ValidationRule
from dhcpless.render.osdoc import OsDocument, OsLink
from dhcpless.render.problem import Problem

IFNAMSIZ_MAX: Final = 15
MTU_RANGE: Final = range(68, 65536)
VLAN_RANGE: Final = range(1, 4095)
BOND_MODES: Final = frozenset(
    {"balance-rr", "active-backup", "balance-xor", "broadcast", "802.3ad", "balance-tlb",
     "balance-alb", "0", "1", "2", "3", "4", "5", "6"}
)  # fmt: skip
HASH_POLICIES: Final = frozenset(
    {"layer2", "layer2+3", "layer3+4", "encap2+3", "encap3+4", "vlan+srcmac"}
)
_NAME = re.compile(r"[A-Za-z0-9_.-]+")
_OPTION = re.compile(r"[a-z_]+")
_VALUE = re.compile(r"[A-Za-z0-9_.:+-]*")


def name_problems(doc: OsDocument) -> Iterator[Problem]:
    """NAME: the first bad name or value of each link (at most one Problem per link)."""
    bonds = {link.id for link in doc.links if link.kind is LinkKind.BOND}
    for index, link in enumerate(doc.links):
        defect = next(_defects(link, bonds), None)
        if defect is not None:
            message = f'link "{_shown(link.id)}": {defect}'
            yield Problem(ValidationRule.NAME, message, f"links[{index}]")


def _defects(link: OsLink, bonds: set[str]) -> Iterator[str]:
    limit = IFNAMSIZ_MAX if link.kind is LinkKind.BOND else None
    yield from _name("id", link.id, limit)
    if link.name is not None:
        yield from _name("name", link.name, limit)
    if link.mtu is not None and link.mtu not in MTU_RANGE:
        yield f"mtu {link.mtu} is outside {MTU_RANGE.start}..{MTU_RANGE.stop - 1}"
    if link.kind is LinkKind.VLAN:
        yield from _vlan(link, bonds)
    if link.kind is LinkKind.BOND:
        yield from _bond(link)


def _name(field: str, value: str, limit: int | None) -> Iterator[str]:
    if value in (".", "..") or not _NAME.fullmatch(value):
        yield f"{field} {_shown(value)!r} is not an interface name ([A-Za-z0-9_.-], not . or ..)"
    elif limit is not None and len(value) > limit:
        yield f"{field} {_shown(value)!r} is longer than {limit} characters (Linux IFNAMSIZ)"


def _vlan(link: OsLink, bonds: set[str]) -> Iterator[str]:
    if link.vlan_id is None or link.vlan_id not in VLAN_RANGE:
        yield f"vlan_id {link.vlan_id} is outside {VLAN_RANGE.start}..{VLAN_RANGE.stop - 1}"
    elif link.vlan_link in bonds and len(f"{link.vlan_link}.{link.vlan_id}") > IFNAMSIZ_MAX:
        yield f"interface {link.vlan_link}.{link.vlan_id} is longer than {IFNAMSIZ_MAX} characters"


def _bond(link: OsLink) -> Iterator[str]:
    if link.bond_mode not in BOND_MODES:
        yield f"bond_mode {_shown(str(link.bond_mode))!r} is not a bonding driver mode"
    policy = link.bond_xmit_hash_policy
    if policy and policy not in HASH_POLICIES:  # "": unset, glean writes no such line
        yield f"bond_xmit_hash_policy {_shown(policy)!r} is not a bonding driver policy"
    for option, value in link.bond_parameters():
        if not _OPTION.fullmatch(option) or not _safe(value):
            yield f"bond option {_shown(option)!r} has a name or value glean cannot write safely"


def _safe(value: JsonValue) -> bool:
    """Numbers, booleans, null, safe strings, and containers of those (CAPM3 passes any JSON
    through; only text that could break a config line is refused)."""
    if value is None or isinstance(value, bool | int | float):
        return True
    if isinstance(value, str):
        return _VALUE.fullmatch(value) is not None
    if isinstance(value, list):
        return all(_safe(item) for item in value)
    return all(_VALUE.fullmatch(key) and _safe(item) for key, item in value.items())


def _shown(text: str) -> str:
    """Bounded, so one hostile name cannot make an Event long."""
    return text if len(text) <= 40 else text[:40] + "..."
