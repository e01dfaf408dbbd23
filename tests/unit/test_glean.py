"""Our rendered network_data.json, consumed by glean (the IPA ramdisk's network agent).

For each case the rendered document is put where a config drive would hold it
(`mnt/config/openstack/latest/network_data.json` under a fake root), the fake root
gets `sys/class/net/<nic>/address` = the host's MAC, and glean runs as a separate
process in `--noop` mode for the Debian writer, printing the files it would write.
A stub `systemctl` on PATH makes glean choose /etc/resolv.conf, whatever this machine
runs. The assertions are on the static configuration of the boot NIC.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from dhcpless.tools.render_cmd import EXIT_OK, run_render
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
    stub = root / "bin" / "systemctl"
    stub.parent.mkdir()
    stub.write_text("#!/bin/sh\nexit 1\n")
    stub.chmod(0o755)


def _glean(root: Path) -> dict[str, str]:
    """Run glean; return {path: content} of the files it would write."""
    command = [sys.executable, "-m", "glean.cmd", "--noop", "--distro", "debian"]
    command += ["--root", str(root), "--no-dhcp-fallback"]
    env = {"PATH": f"{root / 'bin'}:/usr/bin:/bin", "PYTHONWARNINGS": "ignore"}
    done = subprocess.run(
        command, capture_output=True, text=True, env=env, timeout=seconds(60), check=False
    )
    assert done.returncode == 0, done.stderr
    files: dict[str, str] = {}
    for chunk in done.stdout.split("### Write ")[1:]:
        path, _, body = chunk.partition("\n")
        files[path] = body
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
def test_bond_with_vlan_dual_stack(tmp_path: Path, template: str) -> None:
    folder = FIXTURES / "bond-vlan"
    doc = _render(folder / template, folder / "host.yaml", folder / "addresses.yaml")
    _fake_root(tmp_path, doc, {"dlt0": "52:54:00:6c:3c:11", "dlt1": "52:54:00:6c:3c:12"})
    files = _glean(tmp_path)
    bond = _lines(files["/etc/network/interfaces.d/bond0.cfg"])
    assert {"bond-mode 802.3ad", "post-up ifenslave bond0 dlt0 dlt1"} <= set(bond)
    assert "bond-master bond0" in _lines(files["/etc/network/interfaces.d/dlt1.cfg"])
    vlan = _lines(files["/etc/network/interfaces.d/bond0.10.cfg"])
    assert {"iface bond0.10 inet static", "iface bond0.10 inet6 static"} <= set(vlan)
    assert {"vlan-raw-device bond0", "address 10.0.10.21", "netmask 255.255.255.0"} <= set(vlan)
    assert {"gateway 10.0.10.1", "address 2001:db8:10::21", "gateway 2001:db8:10::1"} <= set(vlan)
    assert _lines(files["/etc/resolv.conf"]) == ["nameserver 8.8.4.4", "nameserver 2001:db8:10::53"]
