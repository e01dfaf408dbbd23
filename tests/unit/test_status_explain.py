"""`dhcpless status NAMESPACE/NAME`'s explanation (`tools.status.explain`), pure parts: which
Secret holds a host, what each access answer says, and refusals by JSON path, rule, way out."""

from __future__ import annotations

import json
from typing import Any

import pytest

from dhcpless import keys
from dhcpless.models import BareMetalHost, Secret
from dhcpless.tools.status import explain
from tests.support import objects

DATA: dict[str, Any] = {
    "links": [{"id": "eno1", "type": "phy", "ethernet_mac_address": objects.MAC}],
    "networks": [{"id": "n", "type": "ipv4", "link": "eno1", "ip_address": "10.0.0.5",
                  "netmask": "255.255.255.0", "routes": []}],
    "services": [],
}  # fmt: skip


def _host(data_name: str = "", pause: str | None = keys.PREPROVISIONING_PAUSE) -> BareMetalHost:
    return BareMetalHost.from_k8s(objects.host(pause=pause, data_name=data_name))


def _secret(document: Any) -> Secret:
    text = document if isinstance(document, str) else json.dumps(document)
    meta = {"name": "mine", "namespace": objects.NS}
    return Secret.from_k8s({"metadata": meta, "data": {"networkData": Secret.encode(text)}})


@pytest.mark.parametrize(
    ("host", "expected"),
    [
        pytest.param(_host("mine"), "mine", id="named-by-the-host"),
        pytest.param(_host(), "host-0" + keys.SECRET_NAME_SUFFIX, id="ours"),
        pytest.param(_host(pause=None), None, id="not-paused-for-us"),
    ],
)
def test_the_secret_that_holds_a_host(host: BareMetalHost, expected: str | None) -> None:
    assert explain.secret_in_use(host) == expected


@pytest.mark.parametrize(
    ("document", "path", "rule"),
    [
        pytest.param(DATA, "networks[0].network_id", "ironic-network-id", id="no-network-id"),
        pytest.param("{]", "networkData", "document", id="not-network-data"),
        pytest.param("", "networkData", "document", id="empty"),
    ],
)
def test_each_refusal_names_its_path_and_rule(document: Any, path: str, rule: str) -> None:
    found = explain.findings(_host("mine"), _secret(document))
    assert (found[0].path, found[0].rule) == (path, rule)
    assert found[0].way_out and not found[0].message.startswith(f"{path}:")  # said once


def test_good_data_has_no_findings() -> None:
    good = {**DATA, "networks": [{**DATA["networks"][0], "network_id": "n"}]}
    assert explain.findings(_host("mine"), _secret(good)) == ()


@pytest.mark.parametrize(
    ("host", "access", "said"),
    [
        pytest.param(_host("mine"), explain.Access.FORBIDDEN, "may not read it", id="forbidden"),
        pytest.param(_host("mine"), explain.Access.MISSING, "not found; create it", id="missing"),
        pytest.param(_host(), explain.Access.MISSING, "not written yet", id="ours-not-yet"),
    ],
)
def test_what_each_access_answer_says(
    host: BareMetalHost, access: explain.Access, said: str
) -> None:
    report = explain.SecretReport(objects.NS, "mine", access)
    assert said in "\n".join(explain.lines(host, report))
