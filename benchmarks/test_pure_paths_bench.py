"""Benchmarks of the pure paths every host goes through: resolve, pools, render.

Run with `python3 scripts/dev.py bench` (or pytest -m bench benchmarks/).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from dhcpless.models import BareMetalHost, IPAddress, Metal3DataTemplate, Metal3MachineTemplate
from dhcpless.render import Address, referenced_pools, render_network_data
from dhcpless.templates.resolve import Resolved, resolve_template

pytestmark = pytest.mark.bench

BONDED = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "render" / "bond-vlan"


def _load(name: str) -> list[Any]:
    return list(yaml.safe_load_all((BONDED / name).read_text()))


def _machine_templates(count: int) -> list[Metal3MachineTemplate]:
    def one(i: int) -> Metal3MachineTemplate:
        expressions = [{"key": "gen", "operator": "Gt", "values": [str(i % 9)]}]
        selector = {"matchLabels": {"rack": f"r{i}"}, "matchExpressions": expressions}
        spec = {"hostSelector": selector, "dataTemplate": {"name": f"dt-{i}"}}
        obj = {"metadata": {"name": f"m3mt-{i}", "namespace": "metal3"}}
        return Metal3MachineTemplate.from_k8s({**obj, "spec": {"template": {"spec": spec}}})

    return [one(i) for i in range(count)]


def _host() -> BareMetalHost:
    host = _load("host.yaml")[0]
    host["metadata"]["labels"] = {"rack": "r42", "gen": "9"}
    return BareMetalHost.from_k8s(host)


def test_resolve_over_100_machine_templates(benchmark: Any) -> None:
    host, templates = _host(), _machine_templates(100)
    result = benchmark(resolve_template, host, templates)
    assert isinstance(result, Resolved) and result.ref.name == "dt-42"


def test_referenced_pools(benchmark: Any) -> None:
    template = Metal3DataTemplate.from_k8s(_load("template-v1beta2.yaml")[0])
    assert template.network_data is not None
    pools = benchmark(referenced_pools, template.network_data, _host())
    assert [p.name for p in pools] == ["mgmt-v4", "mgmt-v6"]


def test_render_bond_vlan_dual_stack(benchmark: Any) -> None:
    template = Metal3DataTemplate.from_k8s(_load("template-v1beta2.yaml")[0])
    items = _load("addresses.yaml")[0]["items"]
    ips = [IPAddress.from_k8s(item) for item in items]
    addresses = {ip.spec.pool.name: Address.from_ipaddress(ip) for ip in ips}
    rendered = benchmark(render_network_data, template.network_data, _host(), addresses)
    assert rendered is not None and len(rendered["links"]) == 4
