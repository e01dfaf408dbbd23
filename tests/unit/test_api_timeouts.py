"""Every Kubernetes API call has a timeout (issue 14, finding 1): an API server that accepts
the connection and never answers costs a function a bounded wait and a Transient (503,
retried), never a thread held past Serving's request timeout."""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import yaml
from kubernetes.client import ApiClient, Configuration

from dhcpless import limits
from dhcpless.errors import Transient
from dhcpless.kube import Kube
from dhcpless.kube.transport.timeouts import TimedRest
from dhcpless.models import Secret

ROOT = Path(__file__).resolve().parents[2]
SHORT = (1.0, 0.5)
DEADLINE = 30.0
"""Generous: the call must end long before this, even on a loaded machine."""


@pytest.fixture
def silent_api() -> Iterator[str]:
    """A listening socket that accepts and never answers (a hung API server)."""
    with socket.create_server(("127.0.0.1", 0)) as server:
        held: list[socket.socket] = []
        stop = threading.Event()

        def accept() -> None:
            server.settimeout(0.2)
            while not stop.is_set():
                try:
                    held.append(server.accept()[0])
                except TimeoutError:
                    continue

        thread = threading.Thread(target=accept, daemon=True)
        thread.start()
        yield f"http://127.0.0.1:{server.getsockname()[1]}"
        stop.set()
        thread.join(timeout=DEADLINE)
        for conn in held:
            conn.close()


CALLS: list[object] = [
    pytest.param(lambda k: k.get_host("n", "h"), id="core-path-get-host"),
    pytest.param(lambda k: k.list_machine_templates("n"), id="custom-objects-list"),
    pytest.param(lambda k: k.get_pool("n", "p"), id="custom-objects-get"),
    pytest.param(
        lambda k: k.create_secret(Secret.model_validate({"metadata": {"name": "s"}})),
        id="core-path-create",
    ),
]


@pytest.mark.parametrize("call", CALLS)
def test_a_hung_api_server_ends_the_call_as_transient(
    silent_api: str, call: Callable[[Kube], object]
) -> None:
    kube = Kube(ApiClient(Configuration(host=silent_api)), timeout=SHORT)
    outcome: list[BaseException | None] = []

    def run() -> None:
        try:
            call(kube)
            outcome.append(None)
        except BaseException as exc:  # reported to the test thread
            outcome.append(exc)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(timeout=DEADLINE)
    assert not worker.is_alive(), f"the call still waits after {DEADLINE}s"
    assert isinstance(outcome[0], Transient), outcome


def test_the_default_timeout_fits_inside_every_services_request_timeout() -> None:
    kube = Kube(ApiClient(Configuration(host="http://127.0.0.1:1")))
    rest = kube.api_client.rest_client
    assert isinstance(rest, TimedRest) and rest.timeout == limits.API_TIMEOUT
    budget = sum(limits.API_TIMEOUT)
    for path in sorted((ROOT / "deploy" / "base").glob("*.yaml")):
        for doc in yaml.safe_load_all(path.read_text()):
            if (
                isinstance(doc, dict)
                and doc.get("kind") == "Service"
                and "serving" in str(doc.get("apiVersion"))
            ):
                seconds = doc["spec"]["template"]["spec"]["timeoutSeconds"]
                assert budget < seconds / 2, f"{path.name}: {budget}s of {seconds}s"
