"""The fleet gauges resync exports, read back from `GET /metrics` after real PingSource ticks.

A batch of three hosts against the sandbox API: host-0 goes all the way (its claims answered,
released), host-1 names a template reference that is not one (refused: InvalidTemplate),
host-2's pool is exhausted (IPAM's `Exhausted IP Pools` on one claim: ClaimFailed). Covers:
hosts by state, waiting hosts by the reason their tick decided, the refusals among them
(validation only: an exhausted pool is not a refusal), the oldest wait, the tick's time, a
zero for every state of a namespace; the same text is PUT to a Pushgateway group when one is
configured (a stub on a kernel-chosen port), and a push that fails does not fail the tick.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from cloudevents.core.bindings.http import to_binary_event
from cloudevents.core.v1.event import CloudEvent
from flask.testing import FlaskClient
from kubernetes import client as k8s

from dhcpless import keys
from dhcpless.kube import Kube
from dhcpless.serving.events import PING_EVENT_TYPE
from dhcpless_sandbox.apiserver.server import SandboxServer
from functions.resync import app as resync_app
from functions.resync import fleet
from functions.resync.settings import ResyncSettings
from tests.support import harness, objects, scenario

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]


def _ping(client: FlaskClient) -> int:
    event = CloudEvent(
        attributes={"type": PING_EVENT_TYPE, "source": "/apis/v1/namespaces/metal3/pingsources/r"},
        data=None,
    )
    message = to_binary_event(event)
    status: int = client.post("/", headers=message.headers, data=message.body).status_code
    return status


def parse(text: str) -> Samples:
    """Prometheus text (the subset `fleet` writes): (name, labels) -> value."""
    samples: Samples = {}
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        series, _, value = line.rpartition(" ")
        name, _, rest = series.partition("{")
        pairs = [p.split("=", 1) for p in rest.rstrip("}").split(",") if p]
        samples[name, frozenset((k, v.strip('"')) for k, v in pairs)] = float(value)
    return samples


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


def _client(sandbox: SandboxServer, push_url: str = "") -> FlaskClient:
    settings = ResyncSettings(namespace=objects.NS, metrics_push_url=push_url)
    kube = Kube(sandbox.api_client(token=harness.token("resync")))
    return resync_app.create_app(kube, settings).test_client()


def _fail(sandbox: SandboxServer, claim: str) -> None:
    """IPAM's answer for an exhausted pool (CAPM3 ipam `ipPoolManager`)."""
    group, version, plural = scenario.RESOURCES["IPClaim"]
    failure = {"status": {"errorMessage": "Failed to allocate address: Exhausted IP Pools"}}
    with sandbox.api_client() as api:
        k8s.CustomObjectsApi(api).patch_namespaced_custom_object_status(
            group, version, objects.NS, plural, claim, failure
        )


@pytest.fixture
def batch() -> Iterator[tuple[SandboxServer, FlaskClient]]:
    """Four hosts ticked until host-0 is released (bounded: a few ticks); host-3's BMC boots
    by PXE, so it is never served."""
    with harness.running() as sandbox:
        for obj in (objects.POOL4, objects.POOL6, objects.data_template(objects.DUAL)):
            harness.put(sandbox, obj)
        for name in ("host-0", "host-2"):
            harness.put(sandbox, objects.host(name=name))
        harness.put(sandbox, objects.host(name="host-1", template="configmaps/x"))
        harness.put(sandbox, objects.host(name="host-3", bmc="ipmi://192.0.2.9"))
        client = _client(sandbox)
        assert _ping(client) == 204  # claims for host-0 and host-2, InvalidTemplate for host-1
        _fail(sandbox, "host-2-pool6")
        with sandbox.api_client() as api:
            ipam = scenario.Ipam(api)
            for claim in ("host-0-pool4", "host-0-pool6", "host-2-pool4"):
                found = harness.get(sandbox, "IPClaim", claim)
                assert found is not None, claim
                ipam.fulfil(found)
        for _ in range(3):
            assert _ping(client) == 204
            if _released(sandbox, "host-0"):
                break
        assert _released(sandbox, "host-0")
        yield sandbox, client


def _released(sandbox: SandboxServer, name: str) -> bool:
    host: dict[str, Any] = harness.get(sandbox, "BareMetalHost", name) or {}
    return keys.RELEASED_AT_ANNOTATION in host.get("metadata", {}).get("annotations", {})


def test_the_batch_reads_back_from_metrics(batch: tuple[SandboxServer, FlaskClient]) -> None:
    response = batch[1].get("/metrics")
    assert response.status_code == 200 and response.mimetype == "text/plain"
    samples = parse(response.get_data(as_text=True))
    ns = objects.NS
    assert value(samples, "dhcpless_hosts", namespace=ns, state="waiting") == 3
    assert value(samples, "dhcpless_hosts", namespace=ns, state="released") == 1
    assert value(samples, "dhcpless_hosts", namespace=ns, state="stuck") == 0
    assert ("dhcpless_hosts", frozenset({("namespace", ns), ("state", "stuck")})) in samples
    assert value(samples, "dhcpless_hosts_waiting", namespace=ns, reason="InvalidTemplate") == 1
    assert value(samples, "dhcpless_hosts_waiting", namespace=ns, reason="ClaimFailed") == 1
    refused = {k: v for k, v in samples.items() if k[0] == "dhcpless_hosts_refused"}
    by_reason = {dict(labels)["reason"]: v for (_, labels), v in refused.items()}
    assert by_reason == {"InvalidTemplate": 1, "BMCBootsByPXE": 1}
    assert all(dict(labels)["namespace"] == ns for (_, labels) in refused)
    assert value(samples, "dhcpless_host_waiting_oldest_seconds", namespace=ns) >= 0
    assert value(samples, "dhcpless_resync_tick_timestamp_seconds") > 1.7e9
    assert {name for name, _ in samples} == set(fleet.METRICS)


class _Gateway(BaseHTTPRequestHandler):
    received: list[tuple[str, str, bytes]]

    def do_PUT(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        self.received.append((self.path, self.headers["Content-Type"], body))
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, format: str, *args: object) -> None:
        """Quiet: the test reads `received`."""


@pytest.fixture
def gateway() -> Iterator[tuple[str, list[tuple[str, str, bytes]]]]:
    received: list[tuple[str, str, bytes]] = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), type("G", (_Gateway,), {"received": received}))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/metrics/job/metal3-dhcpless", received
    finally:
        server.shutdown()
        server.server_close()


def test_each_tick_puts_the_same_text_to_the_pushgateway(
    gateway: tuple[str, list[tuple[str, str, bytes]]],
) -> None:
    url, received = gateway
    with harness.running() as sandbox:
        harness.put(sandbox, objects.host(name="host-1", template="configmaps/x"))
        client = _client(sandbox, url)
        assert _ping(client) == 204
        served = client.get("/metrics").get_data()
    ((path, content_type, body),) = received
    assert (path, content_type, body) == ("/metrics/job/metal3-dhcpless", fleet.TEXT, served)
    assert value(parse(body.decode()), "dhcpless_hosts_refused", namespace=objects.NS,
                 reason="InvalidTemplate") == 1  # fmt: skip


def test_a_failed_push_does_not_fail_the_tick() -> None:
    with harness.running() as sandbox:
        client = _client(sandbox, "http://127.0.0.1:9/metrics/job/x")  # nothing listens
        assert _ping(client) == 204
        assert b"dhcpless_hosts{" in client.get("/metrics").get_data()
