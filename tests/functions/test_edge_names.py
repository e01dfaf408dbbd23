"""Names the API would refuse are answered 400 at the edge (issue 14, finding 7).

`.` and `..` in an event's name once became a LIST of every Secret or a GET of the namespace
(HTTP normalises the path), refused by the Roles (403 -> 503, retried for ever). Now every
function answers such an event 400 (not retried) without one API request, in Resource and
Reference mode; a name read from an object (a host's `preprovisioningNetworkDataName`) is
never made a URL: no request for it, and the host gets a `SecretUnusable` Warning saying the
name cannot name a Secret (issue 24: it was a 400 nobody saw).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from dhcpless import keys
from dhcpless.keys import EventType
from dhcpless_sandbox.apiserver.server import SandboxServer
from tests.support import harness, objects

BAD_NAMES = [
    pytest.param(".", id="dot"),
    pytest.param("..", id="dotdot"),
    pytest.param("a/b", id="slash"),
    pytest.param("a%2fb", id="escaped-slash"),
    pytest.param("Host-0", id="upper-case"),
    pytest.param("-host", id="leading-dash"),
    pytest.param("h" * 254, id="too-long"),
]
KINDS = {
    "host-registration": ("BareMetalHost", "metal3.io/v1alpha1"),
    "ipclaim-fulfilment": ("IPClaim", f"{keys.IPAM_GROUP}/{keys.IPAM_VERSION}"),
    "secret-readiness": ("Secret", "v1"),
}
MODES = [pytest.param(False, id="resource"), pytest.param(True, id="reference")]


@pytest.fixture(scope="module")
def world() -> Iterator[SandboxServer]:
    with harness.running() as sandbox:
        yield sandbox


def _obj(function: str, name: str, namespace: str = objects.NS) -> dict[str, Any]:
    kind, api_version = KINDS[function]
    meta = {"name": name, "namespace": namespace}
    return {"apiVersion": api_version, "kind": kind, "metadata": meta}


def _post(world: SandboxServer, function: str, obj: dict[str, Any], ref: bool) -> tuple[int, str]:
    kind = "ref" if ref else "resource"
    flask = harness.client(world, function)
    return harness.deliver_raw(flask, f"dev.knative.apiserver.{kind}.update", obj, ref)


@pytest.mark.parametrize("reference", MODES)
@pytest.mark.parametrize("name", BAD_NAMES)
@pytest.mark.parametrize("function", sorted(KINDS))
def test_a_name_the_api_would_refuse_is_400_with_no_request(
    world: SandboxServer, function: str, name: str, reference: bool
) -> None:
    before = len(harness.audit_of(world, function))
    status, text = _post(world, function, _obj(function, name), reference)
    assert (status, "is not a DNS-1123 subdomain") == (
        400,
        text.strip()[-len("is not a DNS-1123 subdomain") :],
    )
    assert harness.audit_of(world, function)[before:] == []


@pytest.mark.parametrize("namespace", [".", "..", "Ns", "n" * 64])
def test_a_namespace_the_api_would_refuse_is_400_with_no_request(
    world: SandboxServer, namespace: str
) -> None:
    before = len(harness.audit_of(world, "secret-readiness"))
    obj = _obj("secret-readiness", "fine", namespace)
    status, text = _post(world, "secret-readiness", obj, ref=True)
    assert status == 400 and text.strip().endswith("is not a DNS-1123 label")
    assert harness.audit_of(world, "secret-readiness")[before:] == []


@pytest.mark.parametrize("data_name", [".", ".."])
def test_a_host_naming_secret_dot_is_refused_not_listed(
    world: SandboxServer, data_name: str
) -> None:
    host = harness.put(world, objects.host(name=f"named{len(data_name)}", data_name=data_name))
    status, text = harness.deliver(
        harness.client(world, "host-registration"), EventType.RESOURCE_UPDATE, host
    )
    assert (status, text) == (204, "")  # a Warning, not a 400 nobody sees (issue 24)
    with world.api_client() as api:
        said = [m for _, r, m in harness.host_events(api, host["metadata"]["name"])
                if r == "SecretUnusable"]  # fmt: skip
    assert len(said) == 1 and f"name {data_name!r} is not a DNS-1123 subdomain" in said[0]
    requests = harness.audit_of(world, "host-registration")
    assert not [r for r in requests if r.resource == "secrets" and r.name in ("", data_name)]
