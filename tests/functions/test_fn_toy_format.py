"""A new network-data format is one module and one registry line (issue 29, the format seam).

The toy format below lives in this test alone and is registered by a fixture that removes it
again: nothing else in the project knows it. Through ipclaim-fulfilment (posted CloudEvents)
it is rendered (its own Secret key beside `networkData`, its name recorded on the Secret), the
host is released on it and a retry finds it equal; its `unworkable` refuses a template that
pairs it with an image builder (host paused, no Secret); and its own shape check refuses a
Secret whose data it cannot use, through the chain's release decision.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from dhcpless import keys
from dhcpless.chain.actions import RecordEvent, WriteSecret
from dhcpless.chain.decide.release import decide_release
from dhcpless.chain.objects import secret_object
from dhcpless.keys import EventType
from dhcpless.models import BareMetalHost, Secret
from dhcpless.reasons import Reason
from dhcpless.refs import HostRef
from dhcpless.render.formats import registry
from dhcpless.render.formats.base import load, openstack_json
from dhcpless.render.formats.openstack import openstack_shape
from dhcpless_sandbox.apiserver.server import SandboxServer
from tests.support import harness, objects, scenario

TOY = "toy-links"
TOY_KEY = "toyLinks"
SECRET = "host-0" + keys.SECRET_NAME_SUFFIX


class ToyLinks:
    """OpenStack `networkData` plus `toyLinks`: the link ids, one a line."""

    name = TOY
    foreign: str | None = None

    def texts(self, document: Mapping[str, Any]) -> dict[str, str]:
        ids = "\n".join(str(link["id"]) for link in document["links"])
        return {keys.NETWORK_DATA_KEY: openstack_json(document), TOY_KEY: ids}

    def unworkable(self, builder: bool) -> str | None:
        return "toy-links feeds no image builder" if builder else None

    def shape(self, text: str) -> tuple[str | None, Any]:
        trouble, document = openstack_shape(text)
        if trouble is None and not document["links"]:
            return "toy-links needs a link", None
        return trouble, document


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The toy format, registered for this test only (one registry line)."""
    monkeypatch.setitem(registry.FORMATS, TOY, ToyLinks())
    yield
    monkeypatch.undo()
    assert registry.lookup(TOY) is None


def template(builder: bool) -> dict[str, Any]:
    obj = objects.data_template(objects.DUAL)
    annotations = obj["metadata"].setdefault("annotations", {})
    annotations[keys.NETWORK_DATA_FORMAT_ANNOTATION] = TOY
    if builder:
        annotations[keys.PREPROV_IMAGE_BUILDER_ANNOTATION] = "true"
    return obj


@pytest.fixture
def registered(toy: None, request: pytest.FixtureRequest) -> Iterator[SandboxServer]:
    """A host whose claims are fulfilled, for a toy-format template (param: with a builder)."""
    with harness.running() as sandbox:
        for obj in (objects.POOL4, objects.POOL6, template(request.param)):
            harness.put(sandbox, obj)
        host = harness.put(sandbox, objects.host())
        client = harness.client(sandbox, "host-registration")
        assert harness.deliver(client, EventType.RESOURCE_ADD, host)[0] == 204
        with sandbox.api_client() as api:
            for pool in ("pool4", "pool6"):
                found = harness.get(sandbox, "IPClaim", f"host-0-{pool}")
                assert found is not None
                scenario.Ipam(api).fulfil(found)
        yield sandbox


def fulfilment(sandbox: SandboxServer) -> tuple[int, str]:
    client = harness.client(sandbox, "ipclaim-fulfilment")
    found = harness.get(sandbox, "IPClaim", "host-0-pool6")
    assert found is not None
    return harness.deliver(client, EventType.RESOURCE_UPDATE, found)


def released(sandbox: SandboxServer) -> bool:
    host = harness.get(sandbox, "BareMetalHost", "host-0")
    assert host is not None
    return keys.PAUSED_ANNOTATION not in host["metadata"].get("annotations", {})


def host_events(sandbox: SandboxServer) -> list[tuple[str, str, str]]:
    with sandbox.api_client() as api:
        return harness.host_events(api, "host-0")


@pytest.mark.parametrize("registered", [pytest.param(False, id="stock-bmo")], indirect=True)
def test_a_toy_format_is_rendered_and_released(registered: SandboxServer) -> None:
    assert fulfilment(registered) == (204, "")
    raw = harness.get(registered, "Secret", SECRET)
    assert raw is not None
    stored = Secret.from_k8s(raw)
    assert set(stored.data or {}) == {keys.NETWORK_DATA_KEY, TOY_KEY}
    assert stored.metadata.annotations[keys.NETWORK_DATA_FORMAT_ANNOTATION] == TOY
    document = load(stored.decoded(keys.NETWORK_DATA_KEY) or "")
    assert stored.decoded(TOY_KEY) == "\n".join(link["id"] for link in document["links"])
    assert released(registered)
    assert fulfilment(registered) == (204, "")  # a retry finds the Secret equal: no conflict
    assert "SecretConflict" not in {reason for _, reason, _ in host_events(registered)}


@pytest.mark.parametrize("registered", [pytest.param(True, id="builder")], indirect=True)
def test_a_toy_format_that_cannot_work_leaves_the_host_paused(registered: SandboxServer) -> None:
    assert fulfilment(registered) == (204, "")
    assert harness.get(registered, "Secret", SECRET) is None
    assert not released(registered)
    warnings = [(r, m) for kind, r, m in host_events(registered) if kind == "Warning"]
    assert [r for r, _ in warnings] == ["InvalidTemplate"]
    assert "toy-links feeds no image builder" in warnings[0][1]


def toy_secret(host: BareMetalHost, document: Mapping[str, Any]) -> Secret:
    """Our Secret for `host` in the toy format, as the chain writes it."""
    texts = ToyLinks().texts(document)
    others = tuple((k, v) for k, v in texts.items() if k != keys.NETWORK_DATA_KEY)
    name = host.name + keys.SECRET_NAME_SUFFIX
    write = WriteSecret(
        host.namespace, name, HostRef.of(host), texts[keys.NETWORK_DATA_KEY], TOY, others
    )
    return secret_object(write)


@pytest.mark.parametrize(
    ("links", "refused"),
    [
        pytest.param(True, "", id="usable"),
        pytest.param(False, "toy-links needs a link", id="its-own-shape-check"),
    ],
)
def test_the_release_decision_asks_the_toy_format(toy: None, links: bool, refused: str) -> None:
    raw = objects.host()
    raw["metadata"] |= {"uid": "u-0", "resourceVersion": "1"}
    host = BareMetalHost.from_k8s(raw)
    document = load(objects.VALID_NETWORK_DATA) if links else {"links": [], "networks": []}
    actions = decide_release(host, toy_secret(host, document))
    events = [a for a in actions if isinstance(a, RecordEvent)]
    if refused:
        assert [(e.reason, refused in e.message) for e in events] == [(Reason.SECRET_INVALID, True)]
    else:
        assert [e.reason for e in events] == [Reason.HOST_RELEASED]
