"""Every Secret a whole run writes is network data Ironic accepts, judged by Ironic's schema.

The world runs `examples/` (IPv4, IPv6, bond+VLAN, our own template kind) and the demo
inventory, with the BMO stand-in judging registrations by Ironic's own schema
(`tests.ironic_schema.schema_check`). Once every host is released, each Secret the functions
wrote is decoded as BMO decodes it and validated: zero schema errors, and no registration
refused by the stand-in.
"""

from __future__ import annotations

import base64
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from kubernetes import client

from dhcpless import keys
from dhcpless_sandbox.demo.inventory import NAMESPACE, create, inventory
from dhcpless_sandbox.demo.run import EXAMPLES_NAMESPACE
from dhcpless_sandbox.runtime.world import World
from dhcpless_sandbox.runtime.world_settings import WorldSettings
from tests.ironic_schema import ironic_errors, schema_check
from tests.support.waits import eventually

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
DEMO_HOSTS = 5


@pytest.fixture
def world() -> Iterator[World]:
    settings = WorldSettings(resync_seconds=0.5, idle_seconds=0.5, network_data_check=schema_check)
    started = World(settings)
    started.start()
    yield started
    started.stop()


def _examples() -> list[dict[str, Any]]:
    docs = [d for f in sorted(EXAMPLES.glob("*.yaml")) for d in yaml.safe_load_all(f.read_text())]
    return [d for d in docs if d and d["metadata"]["name"] != "storage-0"]  # refused: a bond


def _hosts(api: client.ApiClient) -> list[dict[str, Any]]:
    custom = client.CustomObjectsApi(api)
    found = []
    for namespace in (EXAMPLES_NAMESPACE, NAMESPACE):
        listing: Any = custom.list_namespaced_custom_object(
            keys.BMO_GROUP, keys.BMO_VERSION, namespace, "baremetalhosts"
        )
        found += listing["items"]
    return list(found)


def _released(api: client.ApiClient, count: int) -> bool:
    hosts = _hosts(api)
    paused = [h for h in hosts if keys.PAUSED_ANNOTATION in h["metadata"].get("annotations", {})]
    return len(hosts) == count and not paused


def _written(api: client.ApiClient) -> dict[str, Any]:
    """{namespace/name: decoded networkData} of every Secret the functions wrote."""
    core, found = client.CoreV1Api(api), {}
    for namespace in (EXAMPLES_NAMESPACE, NAMESPACE):
        listing: Any = core.list_namespaced_secret(namespace)
        for secret in listing.items:
            labels = secret.metadata.labels or {}
            if labels.get(keys.MANAGED_BY_LABEL) == keys.MANAGED_BY_VALUE:
                text = base64.b64decode(secret.data[keys.NETWORK_DATA_KEY])
                found[f"{namespace}/{secret.metadata.name}"] = yaml.safe_load(text)
    return found


@pytest.mark.e2e
def test_every_secret_written_passes_ironics_schema(world: World) -> None:
    api = world.api_client()
    examples = _examples()
    create(api, [*examples, *inventory(DEMO_HOSTS)])
    count = DEMO_HOSTS + sum(d["kind"] == "BareMetalHost" for d in examples)
    eventually(lambda: _released(api, count), timeout=90)
    written = _written(api)
    assert len(written) == count
    failures = {name: errors for name, doc in written.items() if (errors := ironic_errors(doc))}
    assert failures == {}
    assert world.bmo.refused == {}
