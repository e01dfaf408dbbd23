"""host-registration on CAPM3's Metal3Data events (the optional source eventing/components/capm3).

Covers: a released host whose Metal3Machine's Metal3Data appears gets its claim lent to that
Metal3Data at once, from the Metal3Data's own event (binary and structured), with no host event
and no resync; a Metal3Data no host of ours consumes, or one being deleted, writes nothing; a
Metal3Data event in Reference mode is refused (400: it needs `spec.claim`).
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Iterator
from typing import Any

import pytest
import yaml

from dhcpless import keys
from dhcpless.keys import EventType
from dhcpless_sandbox.apiserver.server import SandboxServer
from tests.support import harness, objects, scenario

FN = "host-registration"
CAPM3 = f"{keys.CAPM3_GROUP}/{keys.CAPM3_VERSION}"


@functools.cache
def _crd() -> dict[str, Any]:
    text = (harness.CRDS / "infrastructure.cluster.x-k8s.io_metal3datas.yaml").read_text()
    found: dict[str, Any] = yaml.safe_load(text)
    return found


def _data(name: str, machine: str) -> dict[str, Any]:
    return {
        "apiVersion": CAPM3,
        "kind": "Metal3Data",
        "metadata": {"name": name, "namespace": objects.NS},
        "spec": {"claim": {"name": machine}, "template": {"name": "provisioning"}},
    }


@pytest.fixture
def released() -> Iterator[SandboxServer]:
    """host-0 released by the chain, then associated by CAPM3 with Metal3Machine m3m-0."""
    with harness.running() as sandbox:
        sandbox.apply_crd(copy.deepcopy(_crd()))
        for obj in (objects.POOL4, objects.data_template(objects.IPV4)):
            harness.put(sandbox, obj)
        host = harness.put(sandbox, objects.host())
        assert harness.deliver(harness.client(sandbox, FN), EventType.RESOURCE_ADD, host)[0] == 204
        claim = harness.get(sandbox, "IPClaim", "host-0-pool4")
        with sandbox.api_client() as api:
            scenario.Ipam(api).fulfil(claim or {})
        fulfilled = harness.get(sandbox, "IPClaim", "host-0-pool4") or {}
        fulfilment = harness.client(sandbox, "ipclaim-fulfilment")
        assert harness.deliver(fulfilment, EventType.RESOURCE_UPDATE, fulfilled)[0] == 204
        consumer = {"apiVersion": CAPM3, "kind": "Metal3Machine", "name": "m3m-0",
                    "namespace": objects.NS}  # fmt: skip
        with sandbox.api_client() as api:
            harness.patch_host(api, "host-0", [
                {"op": "add", "path": "/spec/consumerRef", "value": consumer},
            ])  # fmt: skip
        sandbox.reset_audit()
        yield sandbox


def _owner_kinds(sandbox: SandboxServer) -> list[str]:
    claim = harness.get(sandbox, "IPClaim", "host-0-pool4") or {"metadata": {}}
    return [o["kind"] for o in claim["metadata"].get("ownerReferences") or []]


@pytest.mark.parametrize(
    "structured", [pytest.param(False, id="binary"), pytest.param(True, id="structured")]
)
def test_the_metal3data_event_lends_the_claim_at_once(
    released: SandboxServer, structured: bool
) -> None:
    assert _owner_kinds(released) == ["BareMetalHost"]
    data = harness.put(released, _data("data-0", "m3m-0"))
    app = harness.client(released, FN)
    assert harness.deliver(app, EventType.RESOURCE_ADD, data, structured=structured) == (204, "")
    assert _owner_kinds(released) == ["BareMetalHost", "Metal3Data"]
    claim = harness.get(released, "IPClaim", "host-0-pool4") or {}
    lent = claim["metadata"]["ownerReferences"][1]
    assert (lent["name"], lent["uid"]) == ("data-0", data["metadata"]["uid"])
    with released.api_client() as api:
        reasons = {reason for _, reason, _ in harness.host_events(api, "host-0")}
    assert "ClaimLent" in reasons
    again = harness.deliver(app, EventType.RESOURCE_UPDATE, data, structured=structured)
    assert again == (204, "") and _owner_kinds(released) == ["BareMetalHost", "Metal3Data"]


@pytest.mark.parametrize(
    ("machine", "deleting"),
    [
        pytest.param("m3m-other", False, id="no-host-of-ours"),
        pytest.param("", False, id="unclaimed"),
        pytest.param("m3m-0", True, id="being-deleted"),
    ],
)
def test_other_metal3data_write_nothing(
    released: SandboxServer, machine: str, deleting: bool
) -> None:
    data = _data("data-x", machine)
    data["metadata"] |= {"uid": "u-x", "resourceVersion": "1"}
    if deleting:
        data["metadata"]["deletionTimestamp"] = "2026-12-01T00:00:00Z"
    app = harness.client(released, FN)
    assert harness.deliver(app, EventType.RESOURCE_UPDATE, data) == (204, "")
    assert harness.writes(released, FN) == []
    assert _owner_kinds(released) == ["BareMetalHost"]


def test_reference_mode_is_refused(released: SandboxServer) -> None:
    data = harness.put(released, _data("data-0", "m3m-0"))
    app = harness.client(released, FN)
    code, text = harness.deliver_raw(app, EventType.REF_ADD.value, data, reference=True)
    assert code == 400 and "Resource mode" in text
    assert harness.writes(released, FN) == []
