"""`duplicate_on_wire`: two running machines configured with one address at the same time.

The level that matters to users: not what the API says, but what machines configured. The BMO
stand-in records what glean wrote on each host's boot NIC at every boot, as it happens
(`BMOController.wire`): the inspection ramdisk, which fast track keeps running (on by default
in Metal3's Ironic, ironic-image `scripts/ironic-common.sh`), the deploy ramdisk, the deployed
OS (on CAPM3's networkData) and the cleaning ramdisk (`bmo_provisioning`); a host's last boot
is its running machine until the host is deleted. Each address counts once, the first time two
live hosts hold it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Mapping

from kubernetes import client

from dhcpless import keys
from dhcpless_sandbox.controllers.custom_objects import CustomObjects
from dhcpless_sandbox.controllers.periodic import Periodic

Machines = Callable[[], Mapping[str, tuple[str, ...]]]
"""Host name -> addresses its running machine configured (a snapshot)."""
Live = Callable[[], set[str]]
"""The names of the hosts that exist and are not being deleted (e.g. `Observer.live`)."""


def duplicates(machines: Mapping[str, tuple[str, ...]], live: set[str]) -> set[str]:
    """Pure: addresses configured by two or more live hosts."""
    holders: dict[str, set[str]] = defaultdict(set)
    for host, addresses in machines.items():
        for address in addresses if host in live else ():
            holders[address.split("/")[0]].add(host)
    return {a for a, hosts in holders.items() if len(hosts) > 1}


class WireWatch:
    """Samples `machines` every `period` seconds against the live hosts of `namespace`."""

    def __init__(
        self,
        api: client.ApiClient,
        namespace: str,
        machines: Machines,
        *,
        period: float = 0.5,
        live: Live | None = None,
    ) -> None:
        """`live`: who is alive, from a watch already running (else a LIST of every host on
        each look)."""
        self._hosts = CustomObjects(api, keys.BMO_GROUP, keys.BMO_VERSION)
        self._namespace, self._machines = namespace, machines
        self._live = live or self._listed
        self.found: set[str] = set()
        self._ticker = Periodic(period, self.look, "wire-watch")

    def start(self) -> None:
        self._ticker.start()

    def stop(self) -> None:
        self._ticker.stop()
        self.look()

    def count(self) -> int:
        return len(self.found)

    def look(self) -> None:
        self.found |= duplicates(self._machines(), self._live())

    def _listed(self) -> set[str]:
        return {
            h["metadata"]["name"]
            for h in self._hosts.list_items("baremetalhosts", self._namespace)
            if not h["metadata"].get("deletionTimestamp")
        }


def bmo_machines(wire: Mapping[tuple[str, str], tuple[str, ...]], namespace: str) -> Machines:
    """The BMO stand-in's record as `Machines` for one namespace."""
    return lambda: {name: ips for (ns, name), ips in dict(wire).items() if ns == namespace}
