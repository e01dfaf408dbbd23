"""The ramdisk rules (`render.profiles`) held to the writer they stand for.

Every layout of `tests.support.layouts` (single NIC v4 / v6 / dual / SLAAC, two NICs, bond,
bond + VLAN, VLAN on an IPv6-only NIC, two networks of one family on a link, `/8` and `/112`
with a route, IPv4 + SLAAC, MTU (9000 on a NIC and a VLAN, 1400 on a NIC and on a VLAN over a
9000 NIC: glean writes no MTU, `sandbox.standins.mtu_judge`), routes, DNS) is validated for
every ramdisk profile and booted by that profile's real glean, once per NIC as the ramdisk
runs it (`ramdisk.writer_loses`). A row passes only when the rules refuse exactly what the
writer loses: never "passes our rules and the writer loses an address", never a refusal the
writer would not need. Each refusal names the link or network, the rule and a way out.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from dhcpless.keys import RamdiskProfile, ValidationRule
from dhcpless.models import BareMetalHost
from dhcpless.models.netdata import NetworkData
from dhcpless.render import Address, redact, render_network_data
from dhcpless.render.profiles import registry
from dhcpless.render.profiles.glean import HINTS, REDHAT, Glean, RamdiskCheck
from dhcpless.render.validate import validate_network_data
from dhcpless_sandbox.standins.ramdisk import GleanMode, writer_loses
from tests.support.layouts import BOOT, LAYOUTS

from .hosts import make_host

HOST = make_host(boot_mac=BOOT)
EL9, EL10 = RamdiskProfile.GLEAN_EL9, RamdiskProfile.GLEAN_EL10
ROWS = [
    pytest.param(name, profile, id=f"{name}-{profile}")
    for name in LAYOUTS
    for profile in RamdiskProfile
]


@pytest.mark.parametrize(("layout", "profile"), ROWS)
def test_the_rules_refuse_exactly_what_the_writer_loses(
    layout: str, profile: RamdiskProfile
) -> None:
    document = LAYOUTS[layout]
    problems = validate_network_data(document, HOST, profile=profile)
    lost = writer_loses(document, BOOT, GleanMode.IN_PROCESS, profile)
    assert [str(p) for p in problems if p.rule is not ValidationRule.RAMDISK] == []
    refused = [str(p) for p in problems]
    assert (refused, lost) == ([], None) or (refused and lost), (refused, lost)


EL10_ONLY = {
    RamdiskCheck.KEYFILE_ROUTE_PREFIX,
    RamdiskCheck.SLAAC_AFTER_IPV4,
    RamdiskCheck.KEYFILE_VLAN,
    RamdiskCheck.KEYFILE_BOND,
}


def _checks_refusing(profile: RamdiskProfile) -> set[str]:
    return {
        p.check
        for document in LAYOUTS.values()
        for p in validate_network_data(document, HOST, profile=profile)
    }


PROFILE_ROWS = [
    pytest.param(RamdiskProfile.GLEAN_EL9, set(RamdiskCheck) - EL10_ONLY, id="el9"),
    pytest.param(RamdiskProfile.GLEAN_EL10, {c.value for c in RamdiskCheck}, id="el10"),
    pytest.param(RamdiskProfile.GLEAN_DEBIAN, {"bond-ports", "mtu-below-default"}, id="debian"),
    pytest.param(RamdiskProfile.NMSTATE, set(), id="nmstate"),
]
"""One row per ramdisk profile (`render.profiles.registry`): the rules it refuses on."""


def test_the_table_has_a_row_per_registered_profile() -> None:
    assert [row.values[0] for row in PROFILE_ROWS] == list(registry.PROFILES)
    assert list(registry.PROFILES) == list(RamdiskProfile)


@pytest.mark.parametrize("profile", [pytest.param(p, id=p.value) for p in RamdiskProfile])
def test_each_writer_is_what_the_sandbox_ramdisk_runs(profile: RamdiskProfile) -> None:
    """The sandbox's ramdisk reads `runs_glean` and `redhat` off the profile (`keys`): the
    registry's writer must be that glean writer, with the redhat rules exactly when redhat."""
    writer = registry.PROFILES[profile]
    assert writer.profile is profile
    assert isinstance(writer, Glean) == profile.runs_glean
    rules = writer.rules if isinstance(writer, Glean) else ()
    assert set(REDHAT) <= set(rules) if profile.redhat else not set(REDHAT) & set(rules)


@pytest.mark.parametrize(("profile", "checks"), PROFILE_ROWS)
def test_every_rule_is_confirmed_by_a_layout_the_writer_loses(
    profile: RamdiskProfile, checks: set[str]
) -> None:
    assert _checks_refusing(profile) == checks


@pytest.mark.parametrize(
    ("layout", "profile", "words"),
    [
        pytest.param("bond", EL9, ["bond bond0", "bond-ports", "NIC alone", "nmstate"], id="bond"),
        pytest.param("ipv6", EL9, ["link eth0", "ipv6-needs-ipv4", "glean-debian"], id="ipv6-only"),
        pytest.param("two-ipv4-one-link", EL10, ["link eth0", "a4, b4", "a VLAN"], id="two-ipv4"),
        pytest.param("slash8-route", EL10, ["network n4", "/8", "glean-el9"], id="slash8"),
        pytest.param("ipv4-slaac", EL10, ["SLAAC network s6", "IPv4 n4"], id="ipv4-slaac"),
        pytest.param("mtu-1400", EL9, ["link eth0", "MTU 1400", "1500", "nmstate"], id="mtu"),
        pytest.param("vlan-mtu-1400", EL9, ["link v100", "MTU 1400"], id="vlan-mtu"),
        pytest.param("vlan", EL10, ["link v100", "keyfile-vlan", "untagged", "nmstate"], id="vl"),
        pytest.param("bond-one-port", EL10, ["link bond0", "keyfile-bond", "el9"], id="bond1"),
    ],
)
def test_a_refusal_names_the_culprit_the_rule_and_the_way_out(
    layout: str, profile: RamdiskProfile, words: list[str]
) -> None:
    (problem,) = validate_network_data(LAYOUTS[layout], HOST, profile=profile)
    assert (problem.rule, problem.check in set(RamdiskCheck)) == (ValidationRule.RAMDISK, True)
    assert [w for w in words if w not in str(problem)] == [], str(problem)
    assert profile.value in str(problem)


@pytest.mark.slow
@pytest.mark.parametrize("layout", ["ipv4", "bond", "ipv6"])
def test_glean_in_a_subprocess_loses_what_it_loses_in_process(layout: str) -> None:
    document: dict[str, Any] = LAYOUTS[layout]
    assert writer_loses(document, BOOT, GleanMode.SUBPROCESS) == writer_loses(
        document, BOOT, GleanMode.IN_PROCESS
    )


FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "render" / "bond-vlan"
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _bond_vlan_fixture() -> tuple[dict[str, Any], BareMetalHost]:
    host = BareMetalHost.from_k8s(yaml.safe_load((FIXTURE / "host.yaml").read_text()))
    return json.loads((FIXTURE / "expected.json").read_text()), host


def _bond_vlan_example() -> tuple[dict[str, Any], BareMetalHost]:
    """`preprov-bond-vlan` rendered for its host `storage-0`, as `dhcpless render` does."""
    docs = [d for f in sorted(EXAMPLES.glob("*.yaml")) for d in yaml.safe_load_all(f.read_text())]
    template = next(d for d in docs if d and d["metadata"]["name"] == "preprov-bond-vlan")
    host = BareMetalHost.from_k8s(
        next(d for d in docs if d and d["metadata"]["name"] == "storage-0")
    )
    address = Address(address="10.0.100.10", prefix=24, gateway="10.0.100.1")
    data = NetworkData.model_validate(template["spec"]["networkData"])
    rendered = render_network_data(data, host, {"storage-vlan100": address})
    assert rendered is not None
    return rendered, host


@pytest.mark.parametrize(
    "source",
    [
        pytest.param(_bond_vlan_fixture, id="fixture"),
        pytest.param(_bond_vlan_example, id="example"),
    ],
)
def test_our_bond_vlan_is_refused_under_glean_and_accepted_under_nmstate(
    source: Callable[[], tuple[dict[str, Any], BareMetalHost]],
) -> None:
    rendered, host = source()
    (problem,) = validate_network_data(rendered, host)  # the default: glean-el9
    assert (problem.check, problem.path) == (RamdiskCheck.BOND_PORTS, "links[0]")
    assert "bond bond0" in problem.message and "nmstate ramdisk profile" in problem.message
    assert writer_loses(rendered, host.spec.boot_mac_address, GleanMode.IN_PROCESS)
    assert validate_network_data(rendered, host, profile=RamdiskProfile.NMSTATE) == ()


@pytest.mark.parametrize("layout", ["bond", "ipv6", "two-ipv4-one-link"])
def test_a_redacted_refusal_still_says_the_way_out(layout: str) -> None:
    (problem,) = redact.redacted_all(validate_network_data(LAYOUTS[layout], HOST))
    assert problem.message.startswith(f"failed ({problem.check}) at {problem.path}: the glean-el9")
    assert HINTS[RamdiskCheck(problem.check)] in problem.message
    assert "eth0" not in problem.message and "bond0" not in problem.message  # no link ids
