"""A user's static Secret without `network_id`: the Event stays mute, `dhcpless status` tells
whoever may read the Secret which field and rule refused it, and tells anyone else that they
may not read it.

The world runs the whole chain; two people are added to its API server as ServiceAccounts with
Roles of their own: `owner` may read everything in the namespace, Secrets included; `viewer`
may read hosts, IPAM objects, templates and Events, not Secrets. Each runs `dhcpless status
NAMESPACE/NAME` with a kubeconfig of their own token, as a user would.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest
from kubernetes import client

from dhcpless import keys
from dhcpless.tools import cli
from dhcpless_sandbox.apiserver import rbac
from dhcpless_sandbox.demo.inventory import NAMESPACE, create, host, inventory
from dhcpless_sandbox.runtime.world import World
from dhcpless_sandbox.runtime.world_settings import WorldSettings
from tests.support.waits import eventually

HOST = "host-001"
SECRET = "static-001"
NETWORK_DATA = {
    "links": [{"id": "enp1s0", "type": "phy", "ethernet_mac_address": "52:54:00:00:00:01"}],
    "networks": [
        {
            "id": "owners-net",
            "type": "ipv4",
            "link": "enp1s0",
            "ip_address": "192.168.111.77",
            "netmask": "255.255.255.0",
            "routes": [],
        }
    ],
    "services": [],
}
"""Good OpenStack network data a person might write, but for `network_id` (Ironic's rule)."""
READABLE = ["baremetalhosts", "ipclaims", "ipaddresses", "events", "metal3machinetemplates"]


def _role(name: str, resources: list[str]) -> list[dict[str, Any]]:
    meta = {"name": name, "namespace": NAMESPACE}
    rule = {"apiGroups": ["*"], "resources": resources, "verbs": ["get", "list"]}
    subject = {"kind": "ServiceAccount", "name": name, "namespace": NAMESPACE}
    ref = {"kind": "Role", "name": name, "apiGroup": "rbac.authorization.k8s.io"}
    return [
        {"kind": "Role", "metadata": meta, "rules": [rule]},
        {"kind": "RoleBinding", "metadata": meta, "subjects": [subject], "roleRef": ref},
    ]


@pytest.fixture
def world() -> Iterator[World]:
    started = World(WorldSettings(resync_seconds=0.5, idle_seconds=0.5))
    started.start()
    people = [*_role("owner", [*READABLE, "secrets"]), *_role("viewer", READABLE)]
    started.sandbox.authorize = rbac.Authorizer(people)  # the functions are admin: unchecked
    for name in ("owner", "viewer"):
        started.sandbox.add_token(f"{name}-token", rbac.service_account(NAMESPACE, name))
    yield started
    started.stop()


def _unusable_events(api: client.ApiClient) -> list[Any]:
    events = client.CoreV1Api(api).list_namespaced_event(NAMESPACE).items
    return [e for e in events if e.involved_object.name == HOST and e.reason == "SecretUnusable"]


def _status_as(
    world: World,
    who: str,
    tmp: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: Any,
    *options: str,
) -> tuple[int, str]:
    kubeconfig = world.sandbox.write_kubeconfig(tmp / f"{who}.kubeconfig", f"{who}-token")
    monkeypatch.setenv("KUBECONFIG", str(kubeconfig))
    capsys.readouterr()
    code = cli.main(["status", f"{NAMESPACE}/{HOST}", *options])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


@pytest.mark.e2e
def test_status_names_the_field_for_those_who_may_read_the_secret(
    world: World, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    api = world.api_client()
    create(api, inventory(0))
    encoded = base64.b64encode(json.dumps(NETWORK_DATA).encode()).decode()
    body = {"metadata": {"name": SECRET, "namespace": NAMESPACE}, "data": {"networkData": encoded}}
    client.CoreV1Api(api).create_namespaced_secret(NAMESPACE, cast(Any, body))
    bmh = host(1)
    bmh["spec"]["preprovisioningNetworkDataName"] = SECRET
    create(api, [bmh])

    warned = eventually(lambda: _unusable_events(api), timeout=60)
    assert f"dhcpless status {NAMESPACE}/{HOST}" in warned[0].message  # the Event points there
    assert "network_id" not in warned[0].message

    code, owner = _status_as(world, "owner", tmp_path, monkeypatch, capsys)
    assert code == 0, owner
    assert "networks[0].network_id" in owner
    assert "ironic-network-id" in owner  # the rule
    assert "way out:" in owner
    assert "secret unusable" in owner  # the row, as the fleet form prints it

    code, machine = _status_as(world, "owner", tmp_path, monkeypatch, capsys, "--json")
    secret = json.loads(machine)["secret"]
    assert (secret["access"], [f["path"] for f in secret["findings"]]) == (
        "read",
        ["networks[0].network_id"],
    )

    code, viewer = _status_as(world, "viewer", tmp_path, monkeypatch, capsys)
    assert code == 0, viewer
    assert "may not read it" in viewer
    assert "network_id" not in viewer

    secret_bytes = {encoded, "192.168.111.77", "enp1s0", "owners-net"}
    every_event = client.CoreV1Api(api).list_namespaced_event(NAMESPACE).items
    written = json.dumps([e.to_dict() for e in every_event], default=str)
    assert not [b for b in secret_bytes if b in written]
    annotations = client.CustomObjectsApi(api).get_namespaced_custom_object(
        keys.BMO_GROUP, keys.BMO_VERSION, NAMESPACE, "baremetalhosts", HOST
    )
    assert keys.PAUSED_ANNOTATION in cast(dict[str, Any], annotations)["metadata"]["annotations"]
