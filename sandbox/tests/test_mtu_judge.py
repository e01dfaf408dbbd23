"""The MTU judge (`sandbox.standins.mtu_judge`): each link runs at what its file says, else at
the kernel's 1500 (a VLAN at its parent's), and is lost when that exceeds its data's MTU.

glean 1.25.1 writes no MTU line, so the rows with a written MTU stand for a writer that would
(the judge must then read it back, in each of the three file formats)."""

from __future__ import annotations

from typing import Any

import pytest

from dhcpless_sandbox.standins.mtu_judge import mtu_lost, written_mtus
from tests.support.layouts import BOOT, doc, phy, v4, vlan

NICS = {BOOT: "eth0"}
IFCFG = "/etc/sysconfig/network-scripts/ifcfg-"
KEYFILE = "/etc/NetworkManager/system-connections/"
DEBIAN = "/etc/network/interfaces.d/"


def _data(nic_mtu: int, vlan_mtu: int | None = None) -> dict[str, Any]:
    links = [phy("eth0", mtu=nic_mtu)]
    if vlan_mtu is not None:
        links.append(vlan("v100", "eth0", mtu=vlan_mtu))
    return doc(links, [v4("n4", "v100" if vlan_mtu else "eth0", "192.168.0.10")])


@pytest.mark.parametrize(
    ("data", "files", "lost"),
    [
        pytest.param(_data(1500), {}, None, id="default-1500"),
        pytest.param(_data(9000), {}, None, id="jumbo-runs-at-1500"),
        pytest.param(_data(1400), {}, "link eth0: runs at MTU 1500 (glean wrote none)", id="1400"),
        pytest.param(_data(9000, 1400), {}, "link v100: runs at MTU 1500", id="vlan-1400"),
        pytest.param(
            _data(1400), {IFCFG + "eth0": "DEVICE=eth0\nMTU=1400\n"}, None, id="ifcfg-written"
        ),
        pytest.param(
            _data(1500), {IFCFG + "eth0": "DEVICE=eth0\nMTU=9000\n"}, "(as written)", id="ifcfg-big"
        ),
        pytest.param(
            _data(1400, 1400),
            {KEYFILE + "eth0.nmconnection": "[connection]\nid=eth0\n[ethernet]\nmtu=1400\n"},
            None,
            id="keyfile-vlan-inherits",
        ),
        pytest.param(
            _data(1400),
            {DEBIAN + "eth0.cfg": "auto eth0\niface eth0 inet static\n    mtu 1400\n"},
            None,
            id="debian-written",
        ),
    ],
)
def test_each_link_runs_at_what_was_written_or_the_kernel_default(
    data: dict[str, Any], files: dict[str, str], lost: str | None
) -> None:
    found = mtu_lost(data, files, NICS)
    assert (found is None) is (lost is None), found
    assert lost is None or (found is not None and lost in found)


def test_written_mtus_reads_the_three_formats() -> None:
    files = {
        IFCFG + "eth0": "DEVICE=eth0\nMTU=9000\n",
        KEYFILE + "eth1.nmconnection": "[connection]\nid=eth1\n[802-3-ethernet]\nmtu=1400\n",
        DEBIAN + "eth2.cfg": "auto eth2\niface eth2 inet manual\n    mtu 1450\n",
    }
    assert written_mtus(files) == {"eth0": 9000, "eth1": 1400, "eth2": 1450}
