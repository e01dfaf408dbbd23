"""`duplicate_on_wire` as the wire itself tells it: hosts booted one after another on one bridge.

Each address counts once, found by the duplicate detection the hosts' own stacks run:
- **IPv4** has none in the kernel, so before a host's consumer configures anything, each IPv4
  address of its data is probed on its NIC as `arping -D` does before an address is added
  (initscripts' `ifup-eth`; RFC 5227's probe, sender 0.0.0.0: `arping -0` of Debian's `arping`,
  which stops at the first answer). An answer means a machine on the wire already holds it.
- **IPv6**: the kernel's own duplicate address detection flags the address `dadfailed`.
  `ip monitor address`, started before the consumer, records that even when the consumer then
  withdraws the address (NetworkManager fails the activation and tries again).

A host boots only once the one before it has finished its detection, so the later of two
holders is the one that finds the duplicate, as on a real wire.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from dhcpless.keys import RamdiskProfile
from tests.support.netns import Host, Lab
from tests.support.netns_boot import Booted, boot
from tests.support.netns_expect import State, wanted
from tests.support.waits import eventually, seconds

_DAD_FAILED = re.compile(r"inet6 ([0-9a-f:]+)/\d+ .*\bdadfailed\b")
DAD_TIMEOUT = 10.0


def probe_ipv4(host: Host, want: State) -> set[str]:
    """The IPv4 addresses of `want` on the host's NICs that another machine answers for."""
    answered = set()
    for ifname, address in sorted(want.addresses):
        plain = address.split("/")[0]
        if ":" in plain or ifname not in host.nics.values():
            continue  # before the consumer runs, only the NICs themselves exist
        host.run(["ip", "link", "set", ifname, "up"])
        probe = ["arping", "-0", "-C", "1", "-c", "3", "-W", "0.2", "-i", ifname, plain]
        done = subprocess.run(
            ["ip", "netns", "exec", host.name, *probe],
            capture_output=True,
            timeout=seconds(10),
            check=False,
        )
        if done.returncode == 0:  # arping: 0 when something answered
            answered.add(plain)
    return answered


def dad_failed(monitor_log: Path) -> set[str]:
    """IPv6 addresses the kernel flagged `dadfailed` (from `ip monitor address`)."""
    return set(_DAD_FAILED.findall(monitor_log.read_text(errors="replace")))


def _detection_over(booted: Booted, want: State, log: Path) -> bool:
    """Every IPv6 address of the data either failed DAD or is held, no longer tentative."""
    failed, state = dad_failed(log), booted.state()
    for ifname, address in want.addresses:
        plain = address.split("/")[0]
        if ":" not in plain or plain in failed:
            continue
        if (ifname, address) not in state.addresses or state.flags.get(address):
            return False
    return True


def duplicate_on_wire(
    lab: Lab, hosts: Sequence[tuple[Mapping[str, Any], str]], profile: RamdiskProfile
) -> tuple[set[str], list[Booted]]:
    """Boot `hosts` (network data, boot MAC) one by one on the lab's bridge; the addresses
    found held twice, and the booted hosts."""
    found: set[str] = set()
    booted: list[Booted] = []
    for document, mac in hosts:
        one, duplicates = _boot_watched(lab, document, mac, profile)
        found |= duplicates
        booted.append(one)
    return found, booted


def _boot_watched(
    lab: Lab, document: Mapping[str, Any], mac: str, profile: RamdiskProfile
) -> tuple[Booted, set[str]]:
    """One host: probed and watched from before its consumer runs until its DAD is over."""
    log = lab.work / f"monitor-{mac.replace(':', '')}.log"  # one host per boot MAC
    found: set[str] = set()

    def before(host: Host) -> None:
        lab.spawn(["ip", "-n", host.name, "monitor", "address"], log)
        found.update(probe_ipv4(host, wanted(document, host.nics)))

    one = boot(lab, document, mac, profile, before)
    want = wanted(document, one.host.nics)
    eventually(lambda: _detection_over(one, want, log), DAD_TIMEOUT, "IPv6 DAD to end")
    return one, found | dad_failed(log)
