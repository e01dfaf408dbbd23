"""Fuzz: templates and host names -> renderer -> validators -> glean (issue 14, finding 2).

10,000 generated templates (link ids and names mixing usable names with path pieces, shell
and control characters; MTUs, VLAN ids, bond modes, hash policies and options over and beyond
their ranges) and host names go through what a host goes through: the CAPM3 renderer, the
pre-unpause validators and, for every document they accept (the ones that would be released),
the real glean in process. Properties: nothing crashes (a template is parsed, rendered and
validated, or refused with our errors); glean never writes outside /etc/network; and the
generator reached glean often enough for that to mean something.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from dhcpless.keys import RamdiskProfile
from dhcpless.models import BareMetalHost
from dhcpless.models.netdata import NetworkData
from dhcpless.render import RenderError, render_network_data
from dhcpless.render.validate import validate_network_data
from dhcpless_sandbox.standins import fake_root, glean_runs, ramdisk
from dhcpless_sandbox.standins.ramdisk import GleanMode
from tests.fuzz.count import GENERATED
from tests.support import objects

EXAMPLES = 10_000
MAC = objects.MAC
SAFE = st.sampled_from(["eth0", "bond0", "vlan10", "nic-a", "b.1", "x_y"])
HOSTILE = st.text(alphabet="ab0./$;` \n\t-_:'\"|&", min_size=0, max_size=20)
NAME = st.one_of(SAFE, SAFE, SAFE, SAFE, HOSTILE, st.text(max_size=40))
USUAL = st.sampled_from([100, 1500, 4094, 9000])
NUMBER = st.one_of(USUAL, USUAL, USUAL, st.integers(-10, 70_000), st.sampled_from([0, 4095]))
MODE = st.one_of(st.sampled_from(["active-backup", "802.3ad", "balance-rr"]), HOSTILE)
POLICY = st.one_of(st.sampled_from(["layer2", "layer3+4", ""]), HOSTILE)
OPTION = st.one_of(st.sampled_from(["miimon", "lacp_rate"]), HOSTILE)
OPTION_VALUE = st.one_of(HOSTILE, NUMBER)
"""Built once: a strategy built inside a draw is validated again on every draw."""
HOST_NAME = st.one_of(SAFE, st.text(max_size=70))


@st.composite
def templates(draw: st.DrawFn) -> dict[str, Any]:
    """A CAPM3 networkData: one NIC, a bond of it, a VLAN on the bond, DHCP on one link."""
    nic, bond, vlan = draw(NAME), draw(NAME), draw(NAME)
    mac = {"string": MAC}
    links = {
        "ethernets": [{"type": "phy", "id": nic, "macAddress": mac, "mtu": draw(NUMBER)}],
        "bonds": _bonds(draw, nic, bond) if draw(st.booleans()) else [],
        "vlans": _vlans(draw, bond, vlan) if draw(st.booleans()) else [],
    }
    on = draw(st.sampled_from([nic, bond, vlan]))
    return {"links": links, "networks": {"ipv4DHCP": [{"id": "n", "link": on}]}}  # fmt: skip


def _bonds(draw: st.DrawFn, nic: str, bond: str) -> list[dict[str, Any]]:
    """A bond of the NIC, drawn only when the template has one (draws are the fuzz's cost)."""
    return [
        {
            "id": bond,
            "bondMode": draw(MODE),
            "bondXmitHashPolicy": draw(POLICY),
            "bondLinks": [nic],
            "macAddress": {"string": MAC},
            "mtu": draw(NUMBER),
            "parameters": {draw(HOSTILE) or "miimon": draw(OPTION_VALUE)},
        }
    ]


def _vlans(draw: st.DrawFn, bond: str, vlan: str) -> list[dict[str, Any]]:
    """A VLAN on the bond, drawn only when the template has one."""
    return [
        {
            "id": vlan,
            "vlanID": draw(NUMBER),
            "vlanLink": bond,
            "macAddress": {"string": MAC},
            "mtu": draw(NUMBER),
        }
    ]


def _host(name: str) -> BareMetalHost:
    raw = objects.host(name=name or "h")
    return BareMetalHost.model_validate({**raw, "status": {}})


DRIVE_DOCUMENT = "mnt/config/openstack/latest/network_data.json"
"""Where `ramdisk._fake_root` puts the document on the config drive."""


def _glean_paths(root: Path, document: dict[str, Any]) -> list[str]:
    """Where the real glean (in process, --noop) would write, on a fake root.

    One root serves every document: glean --noop only reads it, and what differs between
    documents is the config drive's file, since the fuzzed templates name only the boot NIC.
    A document naming another NIC gets a root of its own (the root's /sys/class/net differs).
    Making and removing a root per document was a fifth of this test's time."""
    if fake_root.ethernet_macs(document) - {MAC.lower()}:
        with tempfile.TemporaryDirectory(prefix="fuzz-glean-") as own:
            nics = fake_root.build(Path(own), document, MAC, DEBIAN)
            return _glean(Path(own), list(nics.values()))
    (root / DRIVE_DOCUMENT).write_text(json.dumps(document))
    return _glean(root, ["eth0"])


DEBIAN = RamdiskProfile.GLEAN_DEBIAN
"""The debian writer: its `interfaces.d/<link>` path is the one a crafted id escapes."""


def _glean(root: Path, nics: list[str]) -> list[str]:
    runs = ramdisk._run_glean(str(root), nics, GleanMode.IN_PROCESS)
    return [path for run in runs for path in run["files"]]


def test_what_validation_accepts_glean_writes_only_under_etc_network(tmp_path: Path) -> None:
    reached = {"glean": 0, "refused": 0}
    fake_root.build(tmp_path, {}, MAC, DEBIAN)  # the sandbox ramdisk's fake root, made once

    @settings(
        max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )  # fmt: skip
    @given(template=templates(), host_name=HOST_NAME)
    def one(template: dict[str, Any], host_name: str) -> None:
        GENERATED["names-glean"] += 1
        outcome = _through(tmp_path, template, host_name)
        reached[outcome] += 1

    one()
    print(f"names fuzz: {reached['glean']} documents reached glean, {reached['refused']} refused")
    assert sum(reached.values()) >= EXAMPLES
    assert reached["glean"] >= EXAMPLES // 50, reached  # enough accepted documents to mean it


def _through(root: Path, template: dict[str, Any], host_name: str) -> str:
    """Parse, render, validate; glean for what validation accepts. Which way it went."""
    host = _host(host_name)
    try:
        data = NetworkData.model_validate(template)
        document = render_network_data(data, host, {})
    except (ValidationError, RenderError):
        return "refused"
    assert document is not None
    if validate_network_data(document, host):
        return "refused"
    outside = [p for p in _glean_paths(root, document) if not _inside(p)]
    assert outside == [], (template, outside)
    return "glean"


def _inside(path: str) -> bool:
    return os.path.normpath(path).startswith("/etc/network/") or path in glean_runs.DNS_FILES
