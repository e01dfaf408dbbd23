"""The image we ship, built here and run as each function: what the pods run is what we test.

`python3 scripts/dev.py image` builds the Containerfile (once for this module), umoci unpacks
it, and each function runs as the image's ENTRYPOINT, as its user, on its read-only root
(`tests/image/bundle.py`), against a stub API server (`tests/manifests/test_image.py`'s, on a
kernel-chosen port). Covers, for the four functions and the dead-letter sink: both health
endpoints answer 200; a CloudEvent shaped like what the broker delivers (a PingSource tick for
resync) is answered 204 with the API requests the function should make; the image holds no
sandbox, demo, bench or test code; every line it prints is JSON, none at ERROR; the guide's
`podman run` lines and `K_SERVICE` alone start it; and the demo's chain (50 hosts, the bench's
world: sandbox API, sources, Broker, BMO and IPAM stand-ins) takes every host to `available`
with each function process started from the image.
"""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import signal
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from subprocess import Popen
from typing import Any

import pytest
from kubernetes import client as k8s

from dhcpless.keys import NAMESPACE_ENV, FunctionName
from dhcpless_sandbox.bench import inventory
from dhcpless_sandbox.bench.world import ProcessWorld, app_of, token
from dhcpless_sandbox.demo.inventory import create
from dhcpless_sandbox.runtime import processes
from dhcpless_sandbox.runtime.processes import ProcessSpec
from dhcpless_sandbox.runtime.world_settings import WorldSettings
from dhcpless_sandbox.standins.ramdisk import GleanMode
from tests.manifests.support import SERVED_PACKAGES
from tests.manifests.test_image import (
    EXPECTED_API_REQUESTS,
    NOT_OURS,
    _empty_cluster,
    _free_port,
    _kubeconfig,
    _request,
    json_lines,
)
from tests.support.waits import eventually, seconds

from . import bundle
from .bundle import ROOT

START_TIMEOUT = 30.0


@pytest.fixture(scope="module")
def image(tmp_path_factory: pytest.TempPathFactory) -> bundle.Bundle:
    """The image built by the README's command and unpacked, once for the module."""
    if reason := bundle.cannot_run():
        print(f"tests/image skipped: {reason}")
        pytest.skip(reason)
    work = tmp_path_factory.mktemp("image")
    return bundle.unpack(bundle.build(work / "oci"), work / "bundle")


@dataclass(frozen=True)
class Served:
    function: str
    url: str
    process: subprocess.Popen[bytes]
    api_requests: list[str]
    log: Path


def _stop(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM, as a pod's stop; a process still there after the deadline is killed."""
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=seconds(30))
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@contextlib.contextmanager
def _serving(
    image: bundle.Bundle, env: dict[str, str], tmp: Path, api_requests: list[str]
) -> Iterator[Served]:
    """The image's entry point with `env` on a free port, ready; stopped as a pod is."""
    function = env.get("FUNCTION") or env.get("K_SERVICE", "")
    port = _free_port()
    log = tmp.parent / f"{tmp.name}.log"
    process = bundle.start(image, {**env, "PORT": str(port)}, tmp, log)
    served = Served(function, f"http://127.0.0.1:{port}", process, api_requests, log)
    try:
        eventually(lambda: _ready(served), START_TIMEOUT, f"{function} from the image ready")
        yield served
    finally:
        _stop(process)


def _container_tmp(tmp_path_factory: pytest.TempPathFactory, name: str) -> Path:
    tmp = tmp_path_factory.mktemp(name)
    os.chmod(tmp, 0o1777)  # the container's /tmp: the image's user reads its kubeconfig there
    return tmp


@pytest.fixture(scope="module", params=list(SERVED_PACKAGES))
def served(
    request: pytest.FixtureRequest,
    image: bundle.Bundle,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Served]:
    function: str = request.param
    with _empty_cluster() as (api, api_requests):
        tmp = _container_tmp(tmp_path_factory, function)
        _kubeconfig(tmp, api)
        env = {"FUNCTION": function, "KUBECONFIG": "/tmp/kubeconfig", "NAMESPACE": "n"}
        with _serving(image, env, tmp, api_requests) as served:
            yield served


def _ready(served: Served) -> bool:
    assert served.process.poll() is None, served.log.read_text()
    try:
        return _request(served.url + "/health/readiness")[0] == 200
    except OSError:
        return False


@pytest.mark.parametrize("path", ["/health/liveness", "/health/readiness"])
def test_health_endpoints_answer_200(served: Served, path: str) -> None:
    assert _request(served.url + path)[0] == 200


def test_delivered_event_is_answered_204(served: Served) -> None:
    headers = {"Content-Type": "application/cloudevents+json"}
    status, body = _request(served.url + "/", NOT_OURS[served.function], headers)
    assert (status, body) == (204, b""), served.log.read_text()
    requests = [r.split("?")[0] for r in served.api_requests]
    assert requests == EXPECTED_API_REQUESTS.get(served.function, [])


def test_start_logs_json_lines_and_no_error(served: Served) -> None:
    lines = json_lines(served.log.read_text())
    assert {line["function"] for line in lines} == {served.function}
    assert [line for line in lines if line["level"] == "ERROR"] == []


def test_runs_as_the_images_user_on_a_read_only_root(image: bundle.Bundle) -> None:
    """The bundle's process is the Containerfile's USER, and its root refuses writes."""
    assert image.user == "10001:10001"
    assert image.args[:2] == ["gunicorn", "--config"]
    probe = bundle.start_command(image, ["/usr/bin/touch", "/opt/dhcpless/written"])
    done = subprocess.run(probe, capture_output=True, text=True, timeout=seconds(30), check=False)
    assert done.returncode != 0 and "Read-only file system" in done.stderr, done.stderr


@pytest.mark.parametrize(
    "package", ["sandbox", "tools/demo", "tools/bench", "tests", "dhcpless_sandbox"]
)
def test_image_holds_no_sandbox_demo_bench_or_tests(image: bundle.Bundle, package: str) -> None:
    site = next((image.rootfs / "opt" / "dhcpless" / "lib").glob("python3*/site-packages"))
    assert (site / "dhcpless" / "serving").is_dir()
    assert not (site / "dhcpless" / package).exists()
    assert not (site / package).exists()


GUIDE = ROOT / "docs" / "deploy.md"


def guide_runs() -> list[list[str]]:
    """Every `podman run` of the guide's shell blocks ("Try it locally")."""
    blocks = re.findall(r"```sh\n(.*?)```", GUIDE.read_text(), flags=re.DOTALL)
    lines = [line for block in blocks for line in block.splitlines()]
    return [shlex.split(line) for line in lines if line.startswith("podman run ")]


def _after(argv: list[str], flag: str) -> list[str]:
    return [argv[i + 1] for i, arg in enumerate(argv) if arg == flag]


@pytest.mark.parametrize(
    "argv",
    [pytest.param(a, id=dict(e.split("=", 1) for e in _after(a, "-e"))["FUNCTION"])
     for a in guide_runs()],
)  # fmt: skip
def test_the_guides_local_try_runs_as_written(
    image: bundle.Bundle, argv: list[str], tmp_path_factory: pytest.TempPathFactory
) -> None:
    """The guide's `podman run`, its `-e` as given and each `-v` a kubeconfig of a reachable
    API server (the stub here, `dhcpless sandbox` in the guide): ready, and its lines JSON."""
    env = dict(item.split("=", 1) for item in _after(argv, "-e"))
    with _empty_cluster() as (api, api_requests):
        tmp = _container_tmp(tmp_path_factory, "guide")
        for volume in _after(argv, "-v"):
            assert volume.split(":")[1] == "/tmp/kubeconfig", volume
            _kubeconfig(tmp, api)
        with _serving(image, env, tmp, api_requests) as served:
            assert _request(served.url + "/health/readiness")[0] == 200
        lines = json_lines(served.log.read_text())
        assert {line["function"] for line in lines} == {env["FUNCTION"]}


def test_k_service_chooses_the_function_when_function_is_unset(
    image: bundle.Bundle, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Serving sets K_SERVICE to the Service's name: enough to serve, and named on each line."""
    assert "FUNCTION" not in image.env
    tmp = _container_tmp(tmp_path_factory, "k-service")
    with _serving(image, {"K_SERVICE": "dead-letter"}, tmp, []) as served:
        assert _request(served.url + "/health/readiness")[0] == 200
    assert {line["function"] for line in json_lines(served.log.read_text())} == {"dead-letter"}


HOSTS = 50


class ImageWorld(ProcessWorld):
    """The bench's world (sandbox API, sources, Broker, BMO and IPAM stand-ins), each of the
    four functions a process started from the unpacked image: its ENTRYPOINT and gunicorn
    config, as its user, on its read-only root, on a socket the world bound (`--bind fd://`),
    with its own kubeconfig on the container's /tmp (the world's workdir)."""

    def spec(self, function: str) -> ProcessSpec:
        self.sandbox.add_token(token(function), function)
        path = self.workdir / f"{function}.kubeconfig"
        self.sandbox.write_kubeconfig(path, token(function))
        path.chmod(0o644)
        env = {"FUNCTION": function, "KUBECONFIG": f"/tmp/{path.name}"}
        env[NAMESPACE_ENV] = self.settings.namespace
        return ProcessSpec(app_of(function), env, self.workdir / f"{function}.log")


def _spawner(image: bundle.Bundle, workdir: Path) -> Callable[[ProcessSpec, int], Popen[bytes]]:
    def spawn(spec: ProcessSpec, fd: int) -> Popen[bytes]:
        argv = [*image.args, "--bind", f"fd://{fd}"]
        assert spec.log is not None
        with spec.log.open("ab") as out:
            return Popen(
                bundle.start_command(image, argv, spec.env, workdir),
                pass_fds=(fd,), stdin=subprocess.DEVNULL, stdout=out, stderr=out,
            )  # fmt: skip

    return spawn


def _states(world: ImageWorld) -> dict[str, str]:
    custom = k8s.CustomObjectsApi(world.api_client())
    raw = custom.list_namespaced_custom_object(
        "metal3.io", "v1alpha1", inventory.NAMESPACE, "baremetalhosts"
    )
    assert isinstance(raw, dict)
    listing: dict[str, Any] = raw
    return {
        item["metadata"]["name"]: ((item.get("status") or {}).get("provisioning") or {}).get(
            "state", ""
        )
        for item in listing["items"]
    }


def test_the_demo_chain_runs_on_the_image(
    image: bundle.Bundle, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """50 hosts from paused to `available`, every function process started from the image;
    their JSON lines (the image's logging) tell each host's release."""
    workdir = _container_tmp(tmp_path_factory, "chain")
    monkeypatch.setattr(processes, "spawn", _spawner(image, workdir))
    settings = WorldSettings(
        idle_seconds=5.0, resync_seconds=300.0, glean_mode=GleanMode.IN_PROCESS,
        bmo_workers=2, namespace=inventory.NAMESPACE,
    )  # fmt: skip
    world = ImageWorld(settings, workdir)
    world.start()
    try:
        admin = world.api_client()
        create(admin, inventory.setup(1))
        create(admin, inventory.hosts(HOSTS))

        def all_available() -> bool:
            states = _states(world)
            return len(states) == HOSTS and set(states.values()) == {"available"}

        eventually(all_available, 120.0, f"{HOSTS} hosts available")
        started = {f.value: s.cold_starts for f, s in world.processes.items()}
    finally:
        world.stop()
    # The chain's two steps ran from the image (ipclaim-fulfilment releases a host whose Secret
    # it wrote itself: secret-readiness serves Secrets written by others, resync the ticks).
    chain = (FunctionName.HOST_REGISTRATION, FunctionName.IPCLAIM_FULFILMENT)
    assert all(started[f.value] >= 1 for f in chain), started
    lines = [json_lines(p.read_text()) for p in workdir.glob("*.log")]
    assert lines and all(x["function"] for log in lines for x in log)
    released = [x for log in lines for x in log if "release" in str(x["message"]) and x.get("host")]
    assert len({x["host"] for x in released}) == HOSTS
