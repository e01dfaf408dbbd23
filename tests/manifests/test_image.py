"""The image's entry command serves every function: gunicorn with deploy/gunicorn_conf.py.

No container engine runs here, so the test runs exactly what the Containerfile's ENTRYPOINT
runs (`gunicorn --config <conf>`, FUNCTION and PORT from the environment) with this Python.
Covers, for the four functions and the dead-letter sink: both health endpoints answer 200;
an event the function has no business with answers 204 with an empty body (what the broker
counts as delivered) without touching the API, and resync's ping answers 204 after one LIST
of its namespace (NAMESPACE) against an API with no hosts (a stub API server on a
kernel-chosen port stands in for the cluster and records requests); an unknown FUNCTION
stops the container at start with one clear line.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tests.support.waits import eventually, seconds

from .support import ROOT, SERVED_PACKAGES

CONF = ROOT / "deploy" / "gunicorn_conf.py"
START_TIMEOUT = 30.0


@dataclass(frozen=True)
class Served:
    function: str
    url: str
    process: subprocess.Popen[bytes]
    api_requests: list[str]
    log: Path


def _free_port() -> int:
    """A port the kernel just chose (bound to 0, then released for gunicorn to take)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class _EmptyCluster(BaseHTTPRequestHandler):
    """An API server with no BareMetalHosts: LIST answers an empty list, anything else 404."""

    requests: list[str]

    def do_GET(self) -> None:
        self.requests.append(f"GET {self.path}")
        if self.path.split("?")[0] == "/apis/metal3.io/v1alpha1/namespaces/n/baremetalhosts":
            self._send(200, {"kind": "BareMetalHostList", "apiVersion": "metal3.io/v1alpha1",
                             "metadata": {"resourceVersion": "1"}, "items": []})  # fmt: skip
        else:
            self._send(404, {"kind": "Status", "apiVersion": "v1", "status": "Failure",
                             "reason": "NotFound", "code": 404})  # fmt: skip

    def do_POST(self) -> None:
        self.requests.append(f"POST {self.path}")
        self._send(404, {"kind": "Status", "apiVersion": "v1", "code": 404})

    def _send(self, code: int, body: dict[str, object]) -> None:
        data = json.dumps(body).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: object) -> None:
        """Quiet: the test asserts on `requests` instead."""


@contextlib.contextmanager
def _empty_cluster() -> Iterator[tuple[str, list[str]]]:
    """A stub API server on a kernel-chosen port: (URL, the requests it received)."""
    requests: list[str] = []
    handler = type("Handler", (_EmptyCluster,), {"requests": requests})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", requests
    finally:
        server.shutdown()
        server.server_close()


def _kubeconfig(tmp: Path, server: str) -> Path:
    config = {
        "apiVersion": "v1",
        "kind": "Config",
        "clusters": [{"name": "c", "cluster": {"server": server}}],
        "users": [{"name": "u", "user": {"token": "unused"}}],
        "contexts": [{"name": "x", "context": {"cluster": "c", "user": "u", "namespace": "n"}}],
        "current-context": "x",
    }
    path = tmp / "kubeconfig"
    path.write_text(json.dumps(config))
    return path


def _request(
    url: str, data: bytes | None = None, headers: dict[str, str] | None = None
) -> tuple[int, bytes]:
    req = urllib.request.Request(url, data=data, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=seconds(10)) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def _wait_ready(served: Served) -> None:
    def ready() -> bool:
        assert served.process.poll() is None, served.log.read_text()
        try:
            return _request(served.url + "/health/readiness")[0] == 200
        except OSError:
            return False

    eventually(ready, START_TIMEOUT, "gunicorn ready")


@pytest.fixture(scope="module", params=list(SERVED_PACKAGES))
def served(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Served]:
    function: str = request.param
    port = _free_port()
    with _empty_cluster() as (api, api_requests):
        tmp = tmp_path_factory.mktemp(function)
        home = tmp / "home-is-not-writable"
        home.write_text("")  # as the image's user: no home where a control socket could go
        env = {
            **{k: v for k, v in os.environ.items() if k != "XDG_RUNTIME_DIR"},
            "HOME": str(home),
            "FUNCTION": function,
            "PORT": str(port),
            "KUBECONFIG": str(_kubeconfig(tmp, api)),
            "NAMESPACE": "n",
        }
        log = tmp / "gunicorn.log"
        with log.open("w") as sink:
            process = subprocess.Popen(
                [sys.executable, "-m", "gunicorn", "--config", str(CONF)],
                env=env,
                cwd=tmp,
                stdout=sink,
                stderr=subprocess.STDOUT,
            )
        served = Served(function, f"http://127.0.0.1:{port}", process, api_requests, log)
        try:
            _wait_ready(served)
            yield served
        finally:
            process.terminate()
            process.wait(timeout=seconds(30))


@pytest.mark.parametrize("path", ["/health/liveness", "/health/readiness"])
def test_health_endpoints_answer_200(served: Served, path: str) -> None:
    assert _request(served.url + path)[0] == 200


def _event(type_: str, kind: str, data: dict[str, object]) -> bytes:
    """A structured-mode CloudEvent shaped like an ApiServerSource or PingSource one."""
    attributes = {
        "specversion": "1.0",
        "id": "e1",
        "source": "https://10.96.0.1:443",
        "type": type_,
    }
    if kind:
        attributes |= {"kind": kind, "name": "x", "namespace": "n", "apiversion": API[kind]}
    return json.dumps({**attributes, "datacontenttype": "application/json", "data": data}).encode()


API = {"BareMetalHost": "metal3.io/v1alpha1", "IPClaim": "ipam.metal3.io/v1alpha1", "Secret": "v1"}
META = {"name": "x", "namespace": "n", "uid": "u1", "resourceVersion": "7"}
HOST = {"apiVersion": API["BareMetalHost"], "kind": "BareMetalHost", "metadata": META}
NOT_OURS = {
    # A host nobody paused for us that names its own network data (not one that slipped
    # through): registration leaves it alone without reading anything.
    "host-registration": _event(
        "dev.knative.apiserver.resource.update",
        "BareMetalHost",
        {**HOST, "spec": {"preprovisioningNetworkDataName": "own"}},
    ),
    # A claim without our labels (CAPM3's, say): not ours to fulfil.
    "ipclaim-fulfilment": _event(
        "dev.knative.apiserver.resource.update",
        "IPClaim",
        {
            "apiVersion": API["IPClaim"],
            "kind": "IPClaim",
            "metadata": META,
            "spec": {"pool": {"name": "p"}},
        },
    ),
    # A deleted Secret releases nothing.
    "secret-readiness": _event(
        "dev.knative.apiserver.ref.delete",
        "Secret",
        {"kind": "Secret", "namespace": "n", "name": "x", "apiVersion": "v1"},
    ),
    # The periodic ping, against a cluster with no hosts: one LIST, nothing to re-drive.
    "resync": _event("dev.knative.sources.ping", "", {"reason": "periodic resync"}),
    # Whatever the broker gave up on: logged (attributes only) and acknowledged, no API call.
    "dead-letter": _event(
        "dev.knative.apiserver.resource.update",
        "BareMetalHost",
        {"apiVersion": API["BareMetalHost"], "kind": "BareMetalHost", "metadata": META},
    ),
}
EXPECTED_API_REQUESTS = {
    "resync": [
        "GET /api/v1/namespaces/n/configmaps/dhcpless-resync-cursor",  # where the last stopped
        "GET /apis/metal3.io/v1alpha1/namespaces/n/baremetalhosts",
    ],
}


def json_lines(text: str) -> list[dict[str, object]]:
    """The container's output, every line one JSON object (`dhcpless.serving.logs`)."""
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def test_start_logs_json_lines_and_no_error(served: Served) -> None:
    """One JSON object per line, naming the function; no ERROR at start: the control socket
    (gunicorn >= 25.1) would fail without a home."""
    lines = json_lines(served.log.read_text())
    assert any(str(line["message"]).startswith("Booting worker") for line in lines)
    assert {line["function"] for line in lines} == {served.function}
    assert [line for line in lines if line["level"] == "ERROR"] == []


def test_event_with_nothing_to_do_answers_204_empty(served: Served) -> None:
    headers = {"Content-Type": "application/cloudevents+json"}
    status, body = _request(served.url + "/", NOT_OURS[served.function], headers)
    assert (status, body) == (204, b"")
    requests = [r.split("?")[0] for r in served.api_requests]
    assert requests == EXPECTED_API_REQUESTS.get(served.function, [])


def test_unknown_function_stops_at_start() -> None:
    env = {**os.environ, "FUNCTION": "no-such-function", "PORT": str(_free_port())}
    done = subprocess.run(
        [sys.executable, "-m", "gunicorn", "--config", str(CONF)],
        env=env,
        capture_output=True,
        text=True,
        timeout=seconds(60),
        check=False,
    )
    assert done.returncode != 0
    assert "FUNCTION='no-such-function' is not one of: dead-letter, host-registration" in (
        done.stderr
    )


def _instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) of the Containerfile, continuation lines joined."""
    text = (ROOT / "Containerfile").read_text().replace("\\\n", " ")
    lines = [line.strip() for line in text.splitlines()]
    kept = [line for line in lines if line and not line.startswith("#")]
    return [(word.upper(), rest.strip()) for word, _, rest in (k.partition(" ") for k in kept)]


def test_containerfile_runs_what_this_module_tests() -> None:
    """The image's ENTRYPOINT is the command above, with the config copied where it points."""
    steps = _instructions()
    (entrypoint,) = [json.loads(args) for word, args in steps if word == "ENTRYPOINT"]
    assert entrypoint[:2] == ["gunicorn", "--config"]
    assert ("COPY", f"deploy/gunicorn_conf.py {entrypoint[2]}") in steps
    bases = [args.split()[0] for word, args in steps if word == "FROM"]
    assert bases and all(base == "${BASE}" for base in bases)
    (default,) = [args.partition("=")[2] for word, args in steps if word == "ARG"]
    assert default in ("python:3.12-slim", "python:3.13-slim")
    (user,) = [args for word, args in steps if word == "USER"]
    assert not user.startswith(("0", "root"))


def _stages() -> list[list[tuple[str, str]]]:
    """The Containerfile's instructions, one list per FROM."""
    stages: list[list[tuple[str, str]]] = []
    for step in _instructions():
        if not stages and step[0] == "ARG":
            continue  # the base's default, before the first stage
        if step[0] == "FROM":
            stages.append([])
        stages[-1].append(step)
    return stages


def test_image_installs_the_product_alone_and_keeps_no_wheel() -> None:
    """The build stage copies the product's sources only (the sandbox is another distribution,
    `sandbox/`) and installs them as they are, with no extra and no pruning step; the final
    stage copies only the installed environment and the user's passwd entry: no wheel, no
    source tree, no pip cache."""
    build, final = _stages()
    sources = {name for word, args in build if word == "COPY" for name in args.split()[:-1]}
    assert sources == {"pyproject.toml", "README.md", "shared", "functions"}, sources
    runs = " && ".join(args for word, args in build if word == "RUN")
    assert "/opt/dhcpless/bin/pip install --no-cache-dir . " in runs, runs
    assert "prune" not in runs and "sandbox" not in runs and "[" not in runs, runs
    assert "--no-cache-dir" in runs
    copies = [args for word, args in final if word == "COPY"]
    assert all("wheel" not in args and "/src" not in args for args in copies), copies
    assert "--from=build /opt/dhcpless /opt/dhcpless" in copies
    # No RUN at all: what a build lends its RUN steps (`dev.py image`'s pip configuration)
    # leaves mount points behind in the stage that ran them, never in the image.
    assert [word for word, _ in final if word == "RUN"] == []
