"""External IPAM through posted CloudEvents, the sandbox API behind the functions.

Covers: a host whose template network draws from an `InClusterIPPool` gets an `IPAddressClaim`
`<bmh>-<pool>` (poolRef as in the template, our labels, owned by the host) and no IPClaim; a
claim the provider failed (Ready False) gives a Warning Event quoting it, no Secret, the host
stays paused; a fulfilled claim renders the Secret from the CAPI IPAddress.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from typing import Any

import pytest
from kubernetes import client as k8s

from dhcpless import keys
from dhcpless.keys import EventType
from dhcpless_sandbox.apiserver.server import SandboxServer
from dhcpless_sandbox.controllers.custom_objects import CustomObjects
from dhcpless_sandbox.standins.capi_ipam import CapiIPAMController, load_crds
from tests.manifests.rbac_lifecycle_steps import CAPI_GROUP, external_world
from tests.support import harness, objects

CLAIM = "ext-1-ext"


@pytest.fixture
def sandbox() -> Iterator[SandboxServer]:
    """The CAPI pool, its template and a waiting host, registered by host-registration."""
    with harness.running() as running:
        load_crds(running)
        pool, *rest = external_world()
        with running.api_client() as admin:
            k8s.CustomObjectsApi(admin).create_namespaced_custom_object(
                CAPI_GROUP, "v1alpha2", objects.NS, "inclusterippools", pool
            )
        stored = [harness.put(running, obj) for obj in rest]
        registration = harness.client(running, "host-registration")
        assert harness.deliver(registration, EventType.RESOURCE_ADD, stored[-1]) == (204, "")
        yield running


def _claims(sandbox: SandboxServer) -> CustomObjects:
    return CustomObjects(sandbox.api_client(), CAPI_GROUP, keys.CAPI_IPAM_VERSION)


def _claim(sandbox: SandboxServer) -> dict[str, Any]:
    found = _claims(sandbox).get("ipaddressclaims", objects.NS, CLAIM)
    assert found is not None
    return found


def test_registration_creates_an_ipaddressclaim(sandbox: SandboxServer) -> None:
    claim = _claim(sandbox)
    assert claim["spec"]["poolRef"] == {
        "apiGroup": CAPI_GROUP, "kind": "InClusterIPPool", "name": "ext"
    }  # fmt: skip
    assert [o["name"] for o in claim["metadata"]["ownerReferences"]] == ["ext-1"]
    assert claim["metadata"]["labels"][keys.HOST_LABEL] == "ext-1"
    assert harness.get(sandbox, "IPClaim", CLAIM) is None


@pytest.mark.parametrize(
    ("status", "secret", "warning"),
    [
        pytest.param(
            {"conditions": [{"type": "Ready", "status": "False", "reason": "PoolExhausted",
                             "message": "no addresses left"}]},
            False, f"IPAddressClaim {objects.NS}/{CLAIM}: PoolExhausted: no addresses left",
            id="failed-claim-warns",
        ),
        pytest.param(None, True, None, id="fulfilled-claim-renders"),
    ],
)  # fmt: skip
def test_claim_event(
    sandbox: SandboxServer, status: dict[str, Any] | None, secret: bool, warning: str | None
) -> None:
    with sandbox.api_client() as admin:
        if status is None:
            CapiIPAMController(admin).reconcile((objects.NS, "ext"))
        else:
            _claims(sandbox).patch_status("ipaddressclaims", objects.NS, CLAIM, status)
    fulfilment = harness.client(sandbox, "ipclaim-fulfilment")
    assert harness.deliver(fulfilment, EventType.RESOURCE_UPDATE, _claim(sandbox)) == (204, "")
    stored = harness.get(sandbox, "Secret", "ext-1" + keys.SECRET_NAME_SUFFIX)
    assert (stored is not None) is secret
    with sandbox.api_client() as admin:
        events = harness.host_events(admin, "ext-1")
    failures = [m for (t, r, m) in events if r == "ClaimFailed" and t == "Warning"]
    assert failures == ([warning] if warning else [])
    if stored is not None:
        document = json.loads(base64.b64decode(stored["data"][keys.NETWORK_DATA_KEY]))
        assert document["networks"][0]["ip_address"] == "10.9.0.10"
        assert document["networks"][0]["netmask"] == "255.255.255.0"
