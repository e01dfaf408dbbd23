"""Our rendered network data through glean's **redhat** writer: the community IPA ramdisk's path.

The community ramdisk is CentOS Stream, so glean (`cmd.py` `write_redhat_interfaces`) writes
ifcfg files on el9 and NetworkManager keyfiles on el10, choosing by the running system's
os-release `platform_id` (`is_keyfile_format`). glean runs in a separate process on a fake root
whose os-release says CentOS Stream 9 or 10, as the ramdisk runs it (`test_glean._runs`: the
early run, then once per NIC). For IPv4 and IPv6 (dual stack on one NIC), the boot NIC's
interface must carry the claimed address and prefix, the pool's gateway, and the DNS servers,
all read from the IPAddress fixtures (the claims), not written here. A bond stops every port's
run, and IPv6 alone stops the NIC's (the last tests): the ramdisk rules refuse both.
"""

from __future__ import annotations

import ipaddress
from pathlib import Path
from typing import Any

import pytest
import yaml

from dhcpless.keys import RamdiskProfile

from .test_glean import FIXTURES, IPV6_TEMPLATE, _fake_root, _network, _render, _runs

BOOT_MAC = {"single-nic": "52:54:00:6c:3c:01", "bond-vlan": "52:54:00:6c:3c:11"}
DUAL_TEMPLATE = IPV6_TEMPLATE.replace(
    "    networks:\n",
    "    networks:\n      ipv4:\n        - id: prov4\n          link: prov0\n"
    "          ipAddressFromIPPool: prov-pool\n"
    '          routes: [{network: "0.0.0.0", prefix: 0, gateway: {fromIPPool: prov-pool}}]\n',
)


def _profile(keyfile: bool) -> RamdiskProfile:
    return RamdiskProfile.GLEAN_EL10 if keyfile else RamdiskProfile.GLEAN_EL9


def _glean(root: Path, keyfile: bool) -> dict[str, str]:
    """glean's redhat writer per NIC; {path: content} of what the runs wrote (each exits 0)."""
    runs = _runs(root, _profile(keyfile))
    assert [(run["nic"], run["code"], run["error"]) for run in runs if run["code"]] == []
    files: dict[str, str] = {}
    for run in runs:
        files.update(run["files"])
    return files


def _claims(path: Path) -> list[dict[str, Any]]:
    """The IPAddress specs in a fixture file (a List or single objects)."""
    specs = []
    for doc in yaml.safe_load_all(path.read_text()):
        for item in doc.get("items", [doc]):
            if item.get("kind") == "IPAddress":
                specs.append(item["spec"])
    return specs


def _expected_lines(claims: list[dict[str, Any]], keyfile: bool) -> set[str]:
    """What the boot NIC's file must say for each claimed address, in the writer's syntax."""
    lines = set()
    for claim in claims:
        address, prefix, gateway = claim["address"], claim["prefix"], claim["gateway"]
        if keyfile:
            default = "0.0.0.0/0" if ":" not in address else "::/0"
            lines |= {f"address1={address}/{prefix}", f"route1={default},{gateway}"}
        elif ":" in address:
            lines |= {f"IPV6ADDR={address}/{prefix}", f"IPV6_DEFAULTGW={gateway}"}
        else:
            netmask = ipaddress.IPv4Network(f"0.0.0.0/{prefix}").netmask
            lines |= {f"IPADDR={address}", f"NETMASK={netmask}", f"GATEWAY={gateway}"}
    return lines


def _config(files: dict[str, str], name: str, keyfile: bool) -> set[str]:
    path = (
        f"/etc/NetworkManager/system-connections/{name}.nmconnection"
        if keyfile
        else (f"/etc/sysconfig/network-scripts/ifcfg-{name}")
    )
    return {line.strip() for line in files[path].splitlines()}


def _dns(claims: list[dict[str, Any]], files: dict[str, str]) -> None:
    wanted = [server for claim in claims for server in claim.get("dnsServers", [])]
    assert wanted, "the fixture claims DNS servers"
    written = files["/etc/resolv.conf"].split()
    assert written[::2] == ["nameserver"] * len(written[1::2])
    assert set(wanted) <= set(written[1::2])  # the template may add static servers too


KEYFILE = pytest.mark.parametrize(
    "keyfile", [pytest.param(False, id="el9-ifcfg"), pytest.param(True, id="el10-keyfile")]
)


@KEYFILE
def test_ipv4_single_nic(tmp_path: Path, keyfile: bool) -> None:
    folder = FIXTURES / "single-nic"
    doc = _render(folder / "template.yaml", folder / "host.yaml", folder / "addresses.yaml")
    _fake_root(tmp_path, doc, {"dlt0": BOOT_MAC["single-nic"]})
    files = _glean(tmp_path, keyfile)
    claims = _claims(folder / "addresses.yaml")
    config = _config(files, "dlt0", keyfile)
    assert _expected_lines(claims, keyfile) <= config
    assert (
        f"mac_address={BOOT_MAC['single-nic']}" if keyfile else f"HWADDR={BOOT_MAC['single-nic']}"
    ) in config
    _dns(claims, files)


@KEYFILE
def test_ipv6_on_the_boot_nic(tmp_path: Path, keyfile: bool) -> None:
    folder = FIXTURES / "single-nic"
    claims_file = tmp_path / "claims.yaml"
    claims_file.write_text(DUAL_TEMPLATE + "---\n" + (folder / "addresses.yaml").read_text())
    doc = _render(claims_file, folder / "host.yaml", claims_file)
    root = tmp_path / "root"
    _fake_root(root, doc, {"dlt0": BOOT_MAC["single-nic"]})
    files = _glean(root, keyfile)
    claims = _claims(claims_file)
    (v6,) = [c for c in claims if ":" in c["address"]]
    assert _expected_lines(claims, keyfile) <= _config(files, "dlt0", keyfile)
    assert files["/etc/resolv.conf"].split() == ["nameserver", *v6["dnsServers"]]  # dnsFromIPPool


@KEYFILE
@pytest.mark.parametrize("template", ["template-v1beta2.yaml", "template-v1beta1.yaml"])
def test_a_bond_stops_every_port_s_run(tmp_path: Path, keyfile: bool, template: str) -> None:
    """`write_redhat_interfaces` looks the bond's ports up in `sys_interfaces`, which
    `--interface` pruned to one NIC: KeyError, nothing written, on every port's run."""
    folder = FIXTURES / "bond-vlan"
    doc = _render(folder / template, folder / "host.yaml", folder / "addresses.yaml")
    _fake_root(tmp_path, doc, {"dlt0": BOOT_MAC["bond-vlan"], "dlt1": "52:54:00:6c:3c:12"})
    runs = _runs(tmp_path, _profile(keyfile))
    assert [(r["nic"], r["code"], r["error"], _network(r)) for r in runs[1:]] == [
        (nic, 1, "KeyError in write_redhat_interfaces", []) for nic in ("dlt0", "dlt1")
    ]


@KEYFILE
def test_ipv6_alone_stops_the_redhat_writer(tmp_path: Path, keyfile: bool) -> None:
    """glean 1.25.1 appends IPv6 settings to the file its IPv4 branch wrote for the interface;
    without an IPv4 network there is none, and the NIC's run dies (ifcfg: an assert; keyfile:
    KeyError). If a glean release fixes this, this test fails and says so."""
    folder = FIXTURES / "single-nic"
    extra = tmp_path / "v6.yaml"
    extra.write_text(IPV6_TEMPLATE)
    doc = _render(extra, folder / "host.yaml", extra)
    root = tmp_path / "root"
    _fake_root(root, doc, {"dlt0": BOOT_MAC["single-nic"]})
    (run,) = _runs(root, _profile(keyfile))[1:]
    where = "_write_rh_v6_keyfile_interface" if keyfile else "_write_rh_v6_interface"
    error = f"KeyError in {where}" if keyfile else f"AssertionError in {where}"
    assert (run["nic"], run["code"], run["error"], _network(run)) == ("dlt0", 1, error, [])
