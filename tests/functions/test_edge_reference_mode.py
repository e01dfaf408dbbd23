"""Reference-mode events (issue 14, finding 8): a user may set an ApiServerSource to Reference
mode to keep events small. Every kind whose object can be read by name is served as in
Resource mode (the function reads it, as secret-readiness always did); the kinds and
operations that need the payload are refused 400 with a text that says to use Resource mode.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from dhcpless import keys
from dhcpless_sandbox.apiserver.server import SandboxServer
from tests.support import harness, objects

REF = "dev.knative.apiserver.ref."


@pytest.fixture
def world() -> Iterator[SandboxServer]:
    with harness.running() as sandbox:
        harness.put(sandbox, objects.POOL4)
        harness.put(sandbox, objects.POOL6)
        harness.put(sandbox, objects.data_template(objects.DUAL))
        sandbox.reset_audit()
        yield sandbox


def _post(world: SandboxServer, function: str, op: str, obj: dict[str, Any]) -> tuple[int, str]:
    return harness.deliver_raw(harness.client(world, function), REF + op, obj, reference=True)


def _claims(world: SandboxServer) -> list[str]:
    names = ["host-0-pool4", "host-0-pool6"]
    return [name for name in names if harness.get(world, "IPClaim", name) is not None]


@pytest.mark.parametrize("op", ["add", "update"])
def test_a_reference_mode_host_event_registers_the_host(world: SandboxServer, op: str) -> None:
    host = harness.put(world, objects.host())
    assert _post(world, "host-registration", op, host) == (204, "")
    assert _claims(world) == ["host-0-pool4", "host-0-pool6"]


def test_a_reference_mode_event_of_a_deleted_host_is_done(world: SandboxServer) -> None:
    gone = objects.host(name="never-stored")
    assert _post(world, "host-registration", "delete", gone) == (204, "")
    assert harness.writes(world, "host-registration") == []


def test_a_reference_mode_pool_event_reads_the_pool(world: SandboxServer) -> None:
    pool = harness.get(world, "IPPool", "pool4")
    assert pool is not None
    assert _post(world, "ipclaim-fulfilment", "update", pool) == (204, "")
    reads = [(r.verb, r.resource, r.name) for r in harness.audit_of(world, "ipclaim-fulfilment")]
    assert ("get", "ippools", "pool4") in reads


def test_a_reference_mode_claim_event_reads_the_claim(world: SandboxServer) -> None:
    host = harness.put(world, objects.host())
    assert harness.deliver_raw(
        harness.client(world, "host-registration"), REF + "add", host, reference=True
    ) == (204, "")
    claim = harness.get(world, "IPClaim", "host-0-pool4")
    assert claim is not None and claim["metadata"]["labels"][keys.HOST_LABEL] == "host-0"
    assert _post(world, "ipclaim-fulfilment", "update", claim) == (204, "")
    reads = [(r.verb, r.resource, r.name) for r in harness.audit_of(world, "ipclaim-fulfilment")]
    assert ("get", "ipclaims", "host-0-pool4") in reads


CAPI_CLAIM = {
    "apiVersion": f"{keys.CAPI_IPAM_GROUP}/{keys.CAPI_IPAM_VERSION}",
    "kind": "IPAddressClaim",
    "metadata": {"name": "c", "namespace": objects.NS},
}
IPAM_CLAIM = {
    "apiVersion": f"{keys.IPAM_GROUP}/{keys.IPAM_VERSION}",
    "kind": "IPClaim",
    "metadata": {"name": "c", "namespace": objects.NS},
}


@pytest.mark.parametrize(
    ("op", "obj"),
    [
        pytest.param("update", CAPI_CLAIM, id="capi-claim-update"),
        pytest.param("delete", IPAM_CLAIM, id="ipclaim-delete"),
    ],
)
def test_kinds_that_need_the_payload_say_so(
    world: SandboxServer, op: str, obj: dict[str, Any]
) -> None:
    status, text = _post(world, "ipclaim-fulfilment", op, obj)
    assert status == 400 and f"{obj['kind']} " in text and "need Resource mode" in text
    assert harness.audit_of(world, "ipclaim-fulfilment") == []
