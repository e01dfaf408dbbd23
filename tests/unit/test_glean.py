"""Our rendered network_data.json, consumed by glean (the IPA ramdisk's network agent).

For each case the rendered document is put where a config drive would hold it
(`mnt/config/openstack/latest/network_data.json` under a fake root), the fake root
gets `sys/class/net/<nic>/address` = the host's MAC and a Debian os-release, and glean runs
in a separate process as a ramdisk runs it: the early run, then once per NIC
(`sandbox.standins.glean_runs`, `--noop`: the files are printed). Every run must exit 0;
the assertions are on the files all runs wrote. A bond stops every port's run: glean per NIC
cannot configure one (it did only when run once over all NICs, which no ramdisk does).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from dhcpless.keys import RamdiskProfile
from dhcpless.tools.render_cmd import EXIT_OK, run_render
from dhcpless_sandbox.standins import glean_runs
from dhcpless_sandbox.standins.fake_root import OS_RELEASE
from tests.support.waits import seconds

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "render"
IPV6_TEMPLATE = """\
kind: Metal3PreprovisioningDataTemplate
metadata: {name: v6, namespace: metal3}
spec:
  preprovisioningNetworkData:
    links:
      ethernets: [{type: phy, id: prov0, macAddress: {fromHostInterface: eno1}}]
    networks:
      ipv6:
        - id: prov6
          link: prov0
          ipAddressFromIPPool: v6-pool
          routes: [{network: "::", prefix: 0, gateway: {fromIPPool: v6-pool}}]
    services: {dnsFromIPPool: v6-pool}
---
kind: IPAddress
metadata: {name: v6-pool-fd00-22--10, namespace: metal3}
spec:
  address: "fd00:22::10"
  prefix: 64
  gateway: "fd00:22::1"
  dnsServers: ["fd00:22::53"]
  pool: {name: v6-pool}
"""


def _render(template: Path, host: Path, addresses: Path) -> str:
    code, out, err = run_render(template, host, addresses, "openstack")
    assert code == EXIT_OK, err
    return out


def _fake_root(root: Path, network_data: str, nics: dict[str, str]) -> None:
    latest = root / "mnt" / "config" / "openstack" / "latest"
    latest.mkdir(parents=True)
    (latest / "network_data.json").write_text(network_data)
    for name, mac in nics.items():
        nic = root / "sys" / "class" / "net" / name
        nic.mkdir(parents=True)
        (nic / "address").write_text(mac.lower() + "\n")
        (nic / "addr_assign_type").write_text("0\n")
        (nic / "carrier").write_text("1\n")


def _runs(root: Path, profile: RamdiskProfile) -> list[dict[str, Any]]:
    """glean as the `profile` ramdisk runs it, on `root`: one entry per run."""
    (root / "etc").mkdir(exist_ok=True)
    (root / "etc" / "os-release").write_text(OS_RELEASE[profile])
    nics = sorted(path.name for path in (root / "sys" / "class" / "net").iterdir())
    command = [sys.executable, "-m", glean_runs.__name__, str(root), *nics]
    env = {"PATH": "/usr/bin:/bin", "PYTHONWARNINGS": "ignore"}
    done = subprocess.run(
        command, capture_output=True, text=True, env=env, timeout=seconds(60), check=False
    )
    assert done.returncode == 0, done.stderr
    runs: list[dict[str, Any]] = json.loads(done.stdout)
    return runs


def _network(run: dict[str, Any]) -> list[str]:
    """The network files a run wrote: not the DNS files, which `write_dns_info` writes (the
    NetworkManager one at once) before the interfaces, so a run that dies leaves them too."""
    return [path for path in run["files"] if path not in glean_runs.DNS_FILES]


def _glean(root: Path, profile: RamdiskProfile = RamdiskProfile.GLEAN_DEBIAN) -> dict[str, str]:
    """{path: content} of what every run wrote; each run must have exited 0."""
    runs = _runs(root, profile)
    assert [(run["nic"], run["code"], run["error"]) for run in runs if run["code"]] == []
    files: dict[str, str] = {}
    for run in runs:
        files.update(run["files"])
    return files


def _lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines()]


def test_single_nic_ipv4(tmp_path: Path) -> None:
    folder = FIXTURES / "single-nic"
    doc = _render(folder / "template.yaml", folder / "host.yaml", folder / "addresses.yaml")
    _fake_root(tmp_path, doc, {"dlt0": "52:54:00:6c:3c:01"})
    files = _glean(tmp_path)
    config = _lines(files["/etc/network/interfaces.d/dlt0.cfg"])
    assert config[:2] == ["auto dlt0", "iface dlt0 inet static"]
    assert {"address 172.22.0.10", "netmask 255.255.255.0", "gateway 172.22.0.1"} <= set(config)
    assert _lines(files["/etc/resolv.conf"]) == ["nameserver 172.22.0.2", "nameserver 172.22.0.3"]


def test_single_nic_ipv6(tmp_path: Path) -> None:
    folder = FIXTURES / "single-nic"
    extra = tmp_path / "v6.yaml"
    extra.write_text(IPV6_TEMPLATE)
    doc = _render(extra, folder / "host.yaml", extra)
    assert json.loads(doc)["networks"][0]["netmask"] == "ffff:ffff:ffff:ffff::"
    root = tmp_path / "root"
    _fake_root(root, doc, {"dlt0": "52:54:00:6c:3c:01"})
    files = _glean(root)
    config = _lines(files["/etc/network/interfaces.d/dlt0.cfg"])
    assert "iface dlt0 inet6 static" in config
    assert {"address fd00:22::10", "netmask 64", "gateway fd00:22::1"} <= set(config)
    assert _lines(files["/etc/resolv.conf"]) == ["nameserver fd00:22::53"]


@pytest.mark.parametrize("template", ["template-v1beta2.yaml", "template-v1beta1.yaml"])
def test_a_bond_stops_every_port_s_run(tmp_path: Path, template: str) -> None:
    folder = FIXTURES / "bond-vlan"
    doc = _render(folder / template, folder / "host.yaml", folder / "addresses.yaml")
    _fake_root(tmp_path, doc, {"dlt0": "52:54:00:6c:3c:11", "dlt1": "52:54:00:6c:3c:12"})
    runs = _runs(tmp_path, RamdiskProfile.GLEAN_DEBIAN)
    # `write_debian_interfaces` looks the other port up among the one NIC it was given
    assert [(r["nic"], r["code"], r["error"], _network(r)) for r in runs[1:]] == [
        (nic, 1, "KeyError in <listcomp>", []) for nic in ("dlt0", "dlt1")
    ]
