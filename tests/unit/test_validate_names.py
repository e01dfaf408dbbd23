"""NAME rule and bounded, linear validation (issue 14, findings 2 and 5).

Table: names and values the kernel, glean or a shell-read config file would not take are
refused, one Problem per link naming the field. A bond id that escapes glean's directory used
to pass validation and had glean write outside it (shown with the real glean). A document of
thousands of bad links yields a bounded number of Problems (each an Event), and doubling the
document at most about doubles the work, counted in Python calls (not seconds).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

from dhcpless.chain.decide import netcheck
from dhcpless.keys import RamdiskProfile, ValidationRule
from dhcpless.render.problem import MAX_PER_RULE
from dhcpless.render.validate import validate_network_data
from dhcpless_sandbox.standins import fake_root, glean_runs, ramdisk
from dhcpless_sandbox.standins.ramdisk import GleanMode
from tests.support import objects

from .test_functions_decide import bmh, found
from .test_validate import HOST, MAC0, bond, doc, phy, v4, vlan

Doc = dict[str, Any]


def _bond(**changes: Any) -> list[Doc]:
    return [phy("eth0"), {**bond("bond0", ["eth0"]), **changes}]


@pytest.mark.parametrize(
    ("links", "field"),
    [
        pytest.param(_bond(id="../../../etc/cron.d/x"), "id", id="bond-id-escapes"),
        pytest.param(_bond(id="bond-with-16char"), "longer than 15", id="bond-id-too-long"),
        pytest.param(_bond(id="b$(reboot)"), "id", id="shell-metacharacters"),
        pytest.param(_bond(id=".."), "id", id="dotdot"),
        pytest.param(_bond(name="bo nd"), "name", id="space-in-name"),
        pytest.param(_bond(mtu=100_000_000), "mtu 100000000", id="mtu-1e8"),
        pytest.param(_bond(mtu=67), "mtu 67", id="mtu-too-small"),
        pytest.param(_bond(bond_mode="x\n  up reboot"), "bond_mode", id="bond-mode-newline"),
        pytest.param(_bond(bond_xmit_hash_policy="layer9"), "bond_xmit", id="hash-policy"),
        pytest.param(_bond(bond_miimon="1\nup reboot"), "bond option", id="option-value"),
        pytest.param([phy("eth0"), {**vlan("v", "eth0"), "vlan_id": 4095}], "vlan_id", id="vlan"),
        pytest.param(
            [*_bond(id="bond0123456"), {**vlan("v", "bond0123456"), "vlan_id": 4000}],
            "bond0123456.4000",
            id="vlan-interface-too-long",
        ),
        pytest.param([phy("eth/0")], "id", id="nic-id-with-slash"),
    ],
)
def test_names_the_ramdisk_cannot_take_are_refused(links: list[Doc], field: str) -> None:
    found = validate_network_data(doc(links, [v4()]), HOST)
    names = [p.message for p in found if p.rule is ValidationRule.NAME]
    assert len(names) == 1 and field in names[0], found


@pytest.mark.parametrize(
    "links",
    [
        pytest.param(_bond(), id="plain-bond"),
        pytest.param(_bond(bond_mode="802.3ad", bond_xmit_hash_policy="layer3+4"), id="lacp"),
        pytest.param(_bond(bond_miimon={}, bond_lacp_rate="fast"), id="options"),
        pytest.param([phy("eth0"), {**vlan("v", "eth0"), "vlan_id": 4094}], id="vlan-4094"),
    ],
)
def test_names_the_ramdisk_takes_pass(links: list[Doc]) -> None:
    found = validate_network_data(doc(links, [v4()]), HOST)
    assert [p for p in found if p.rule is ValidationRule.NAME] == []


def _glean_paths(document: Doc, tmp: Path) -> list[str]:
    """Where the real glean (in process, --noop) would write for `document`: its debian writer,
    whose `interfaces.d/<link>` path is the one a crafted link id escapes."""
    nics = fake_root.build(tmp, document, MAC0, RamdiskProfile.GLEAN_DEBIAN)  # the sandbox's
    runs = ramdisk._run_glean(str(tmp), list(nics.values()), GleanMode.IN_PROCESS)
    return [path for run in runs for path in run["files"]]


def test_an_escaping_bond_id_is_refused_before_glean_would_write_outside(tmp_path: Path) -> None:
    escaping = doc(_bond(id="../../../srv/x"), [v4(link="../../../srv/x")])
    outside = [p for p in _glean_paths(escaping, tmp_path) if not _inside(p)]
    assert outside, "glean no longer writes outside for this document: the test proves nothing"
    assert [p.rule for p in validate_network_data(escaping, HOST)][:1] == [ValidationRule.NAME]


def _inside(path: str) -> bool:
    return os.path.normpath(path).startswith("/etc/network/") or path in glean_runs.DNS_FILES


def _dangling_vlans(count: int) -> Doc:
    links = [phy("eth0"), *(vlan(f"v{i}", f"nowhere{i}") for i in range(count))]
    return doc(links, [v4()])


def _calls(document: Doc) -> int:
    """Python function calls (and generator resumptions) one validation makes."""
    count = [0]

    def profile(frame: FrameType, event: str, arg: object) -> None:
        if event == "call":
            count[0] += 1

    sys.setprofile(profile)
    try:
        validate_network_data(document, HOST)
    finally:
        sys.setprofile(None)
    return count[0]


def test_validation_is_linear_and_its_problems_bounded() -> None:
    small, large = _dangling_vlans(1000), _dangling_vlans(2000)
    ratio = _calls(large) / _calls(small)
    print(f"validation calls, 2000 vs 1000 dangling links: ratio {ratio:.2f}")
    assert ratio < 2.3, f"doubling the document multiplied the work by {ratio:.2f}"
    found = validate_network_data(large, HOST)
    per_rule: dict[ValidationRule, int] = {}
    for problem in found:
        per_rule[problem.rule] = per_rule.get(problem.rule, 0) + 1
    assert max(per_rule.values()) <= MAX_PER_RULE + 1
    assert any("more" in p.message for p in found)


def test_a_4000_link_document_costs_a_bounded_number_of_events() -> None:
    """Finding 5: every Problem is one Event on the host (`decide.netcheck`); 3,998 of them used
    to be written for one decision."""
    document = _dangling_vlans(4000)
    events = netcheck.render_refusals(bmh(), found(objects.NO_POOLS), document, ())
    assert 0 < len(events) <= len(ValidationRule) * (MAX_PER_RULE + 1)
