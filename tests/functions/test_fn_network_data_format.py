"""The per-template network-data format (issue 6 item 3), through ipclaim-fulfilment.

Covers: without the annotation the Secret holds OpenStack JSON only; `nmstate` adds the key
`nmstate` (OpenShift) beside the same `networkData`; `nmstate-in-networkdata` puts nmstate YAML
under `networkData` when the template says BMO runs with a PreprovisioningImage builder; the
combinations that cannot work (nmstate under `networkData` for stock BMO, whose Ironic refuses
it; OpenStack alone for a builder) leave the host paused with a Warning that says why and which
format to use, and no Secret; every form carries the claimed addresses; the host is released in
each case and a retried event finds the Secret equal (no conflict); an unknown value leaves the
host paused with a Warning and no Secret; a hand-written nmstate `networkData` is refused.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
import yaml

from dhcpless import keys
from dhcpless.keys import EventType, NetworkDataFormat
from dhcpless.models import Secret
from dhcpless_sandbox.apiserver.server import SandboxServer
from tests.support import harness, objects, scenario

SECRET = "host-0" + keys.SECRET_NAME_SUFFIX


BUILDER = "builder"
"""A `registered` parameter suffix: the template also says BMO runs with an image builder."""


def template(fmt: str | None) -> dict[str, Any]:
    obj = objects.data_template(objects.DUAL)
    annotations = obj["metadata"].setdefault("annotations", {})
    if fmt is not None and fmt.endswith(f"+{BUILDER}"):
        fmt = fmt.removesuffix(f"+{BUILDER}") or None
        annotations[keys.PREPROV_IMAGE_BUILDER_ANNOTATION] = "true"
    if fmt is not None:
        annotations[keys.NETWORK_DATA_FORMAT_ANNOTATION] = fmt
    return obj


@pytest.fixture
def registered(request: pytest.FixtureRequest) -> Iterator[SandboxServer]:
    """A host whose claims exist and are fulfilled, for a template of the given format
    (`<format>+builder`: with the PreprovisioningImage builder annotation)."""
    with harness.running() as sandbox:
        for obj in (objects.POOL4, objects.POOL6, template(request.param)):
            harness.put(sandbox, obj)
        host = harness.put(sandbox, objects.host())
        client = harness.client(sandbox, "host-registration")
        assert harness.deliver(client, EventType.RESOURCE_ADD, host)[0] == 204
        with sandbox.api_client() as api:
            for pool in ("pool4", "pool6"):
                scenario.Ipam(api).fulfil(claim(sandbox, pool))
        yield sandbox


def claim(sandbox: SandboxServer, pool: str) -> dict[str, Any]:
    found = harness.get(sandbox, "IPClaim", f"host-0-{pool}")
    assert found is not None
    return found


def fulfilment(sandbox: SandboxServer) -> tuple[int, str]:
    client = harness.client(sandbox, "ipclaim-fulfilment")
    return harness.deliver(client, EventType.RESOURCE_UPDATE, claim(sandbox, "pool6"))


def secret(sandbox: SandboxServer) -> Secret:
    raw = harness.get(sandbox, "Secret", SECRET)
    assert raw is not None
    return Secret.from_k8s(raw)


def released(sandbox: SandboxServer) -> bool:
    host = harness.get(sandbox, "BareMetalHost", "host-0")
    assert host is not None
    return keys.PAUSED_ANNOTATION not in host["metadata"].get("annotations", {})


def host_events(sandbox: SandboxServer) -> list[tuple[str, str, str]]:
    """(type, reason, message) of the Events on host-0."""
    with sandbox.api_client() as api:
        return harness.host_events(api, "host-0")


def nmstate_addresses(document: dict[str, Any]) -> set[str]:
    return {
        a["ip"]
        for iface in document["interfaces"]
        for family in ("ipv4", "ipv6")
        for a in (iface.get(family) or {}).get("address", [])
    }


def openstack_addresses(document: dict[str, Any]) -> set[str]:
    return {n["ip_address"] for n in document["networks"] if "ip_address" in n}


@pytest.mark.parametrize(
    ("registered", "keys_expected"),
    [
        pytest.param(None, {"networkData"}, id="default-openstack"),
        pytest.param("openstack", {"networkData"}, id="openstack"),
        pytest.param("nmstate", {"networkData", "nmstate"}, id="nmstate-key"),
        pytest.param(f"nmstate+{BUILDER}", {"networkData", "nmstate"}, id="nmstate-key-builder"),
        pytest.param(
            f"nmstate-in-networkdata+{BUILDER}", {"networkData"}, id="nmstate-in-networkdata"
        ),
    ],
    indirect=["registered"],
)
def test_the_secret_holds_the_format_the_template_asks_for(
    registered: SandboxServer, keys_expected: set[str]
) -> None:
    assert fulfilment(registered) == (204, "")
    stored = secret(registered)
    assert set(stored.data or {}) == keys_expected
    fmt = stored.metadata.annotations.get(keys.NETWORK_DATA_FORMAT_ANNOTATION, "openstack")
    network_data = yaml.safe_load(stored.decoded(keys.NETWORK_DATA_KEY) or "")
    if fmt == NetworkDataFormat.NMSTATE_IN_NETWORK_DATA:
        addresses = nmstate_addresses(network_data)
    else:
        addresses = openstack_addresses(json.loads(stored.decoded(keys.NETWORK_DATA_KEY) or ""))
    if "nmstate" in keys_expected:
        nmstate = yaml.safe_load(stored.decoded(keys.NMSTATE_KEY) or "")
        assert nmstate_addresses(nmstate) == openstack_addresses(network_data)
    assert len(addresses) == 2  # one IPv4 and one IPv6 claim
    assert released(registered)
    assert fulfilment(registered) == (204, "")  # a retry finds the Secret equal: no conflict
    assert "SecretConflict" not in {reason for _, reason, _ in host_events(registered)}


@pytest.mark.parametrize(
    ("registered", "says"),
    [
        pytest.param(
            "nmstate-in-networkdata",
            "network_data schema refuses nmstate (the host would stay registering); use nmstate",
            id="nmstate-in-networkdata-for-stock-bmo",
        ),
        pytest.param(
            f"openstack+{BUILDER}",
            "reads only the key nmstate; use nmstate",
            id="openstack-for-a-builder",
        ),
        pytest.param(
            f"+{BUILDER}", "reads only the key nmstate; use nmstate", id="default-for-a-builder"
        ),
    ],
    indirect=["registered"],
)
def test_a_format_that_cannot_work_leaves_the_host_paused(
    registered: SandboxServer, says: str
) -> None:
    assert fulfilment(registered) == (204, "")
    assert harness.get(registered, "Secret", SECRET) is None
    assert not released(registered)
    warnings = [(r, m) for kind, r, m in host_events(registered) if kind == "Warning"]
    assert [r for r, _ in warnings] == ["InvalidTemplate"]
    assert says in warnings[0][1]


@pytest.mark.parametrize("registered", [pytest.param("yaml", id="unknown")], indirect=True)
def test_an_unknown_format_leaves_the_host_paused(registered: SandboxServer) -> None:
    assert fulfilment(registered) == (204, "")
    assert harness.get(registered, "Secret", SECRET) is None
    assert not released(registered)
    messages = [text for kind, _, text in host_events(registered) if kind == "Warning"]
    assert any(keys.NETWORK_DATA_FORMAT_ANNOTATION in m for m in messages), messages
