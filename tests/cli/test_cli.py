"""The `dhcpless` console script as a user runs it: a real subprocess, real files.

Covers the DESIGN §3 command-line contract: `render` reproduces a committed fixture and
fails with one clear line; `demo --json` ends with one JSON object holding the contract's
keys; bad arguments are refused before anything runs.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from dhcpless import keys
from tests.support.waits import seconds

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "render"
DHCPLESS = Path(sys.executable).parent / "dhcpless"


def run(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(DHCPLESS), *args],
        capture_output=True,
        text=True,
        timeout=seconds(timeout),
        check=False,
    )


@pytest.mark.parametrize(
    ("case", "template", "profile"),
    [
        pytest.param("bond-vlan", "template-v1beta2.yaml", "nmstate", id="bond-vlan-v1beta2"),
        pytest.param("bond-vlan", "template-v1beta1.yaml", "nmstate", id="bond-vlan-v1beta1"),
        pytest.param("single-nic", "template.yaml", "", id="single-nic"),
    ],
)
def test_render_reproduces_fixture(case: str, template: str, profile: str) -> None:
    folder = FIXTURES / case
    if not (folder / template).exists():
        pytest.fail(f"fixture {folder / template} is missing")
    result = run(*_render_args(folder, template), *(["--ramdisk-profile", profile] * bool(profile)))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == json.loads((folder / "expected.json").read_text())


def _render_args(folder: Path, template: str) -> list[str]:
    return [
        "render", "--template", str(folder / template), "--host", str(folder / "host.yaml"),
        "--addresses", str(folder / "addresses.yaml"),
    ]  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize(
    ("flag", "env", "refused"),
    [
        pytest.param("", "", True, id="default-glean-el9"),
        pytest.param("", "nmstate", False, id="environment"),
        pytest.param("glean-el10", "nmstate", True, id="flag-beats-environment"),
        pytest.param("nmstate", "glean-el9", False, id="flag"),
    ],
)
def test_render_refuses_a_bond_for_a_glean_ramdisk(flag: str, env: str, refused: bool) -> None:
    args = [*_render_args(FIXTURES / "bond-vlan", "template-v1beta2.yaml")]
    args += ["--ramdisk-profile", flag] if flag else []
    environ = {**os.environ, keys.RAMDISK_PROFILE_ENV: env}
    result = subprocess.run(
        [str(DHCPLESS), *args], capture_output=True, text=True, env=environ,
        timeout=seconds(60), check=False,
    )  # fmt: skip
    assert (result.returncode != 0, result.stdout == "") == (refused, refused)
    if refused:
        (line,) = result.stderr.strip().splitlines()
        assert line.startswith("render: ramdisk: links[0] bond bond0") and "bond-ports" in line


def test_render_without_addresses_names_what_is_missing() -> None:
    folder = FIXTURES / "bond-vlan"
    result = run(
        "render",
        "--template",
        str(folder / "template-v1beta2.yaml"),
        "--host",
        str(folder / "host.yaml"),
    )
    assert result.returncode != 0
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("render: no IPAddress for pool")


@pytest.mark.slow
def test_demo_json_ends_with_the_contract_keys() -> None:
    result = run("demo", "--hosts", "3", "--json", timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    for key in (
        "hosts",
        "unpaused",
        "available",
        "stranded",
        "seconds",
        "api_requests",
        "invocations",
        "cold_starts",
    ):
        assert key in summary, key
    assert (summary["hosts"], summary["unpaused"], summary["available"]) == (3, 3, 3)
    assert summary["stranded"] == 0


@pytest.mark.parametrize(
    "args",
    [
        pytest.param(("demo", "--hosts", "0"), id="zero-hosts"),
        pytest.param(("serve", "no-such-function"), id="unknown-function"),
        pytest.param(("render", "--template", "t.yaml"), id="render-missing-host"),
    ],
)
def test_bad_arguments_are_refused(args: tuple[str, ...]) -> None:
    result = run(*args)
    assert result.returncode == 2
    assert "usage: dhcpless" in result.stderr


@pytest.mark.slow
def test_status_reads_the_cluster_in_kubeconfig(tmp_path: Path) -> None:
    """`dhcpless status` as a user runs it: KUBECONFIG names a live (sandbox) API server."""
    from kubernetes import client as k8s

    from dhcpless_sandbox.apiserver.server import SandboxServer
    from tests.support import harness, objects

    with SandboxServer() as server:
        server.load_builtin_crds()
        with server.api_client() as api:
            namespace = k8s.V1Namespace(metadata=k8s.V1ObjectMeta(name=objects.NS))
            k8s.CoreV1Api(api).create_namespace(namespace)
        harness.put(server, objects.host("waiting-host"))
        kubeconfig = server.write_kubeconfig(tmp_path / "kubeconfig")
        env = {**os.environ, "KUBECONFIG": str(kubeconfig)}
        result = subprocess.run(
            [str(DHCPLESS), "status", "--json", "-n", objects.NS],
            capture_output=True,
            text=True,
            timeout=seconds(60),
            check=False,
            env=env,
        )
    assert result.returncode == 0, result.stderr
    rows = json.loads(result.stdout)["hosts"]
    assert [(row["name"], row["phase"]) for row in rows] == [
        ("waiting-host", "waiting for template")
    ]


def test_demo_without_glean_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """glean is the `sandbox` extra: without it the demo stops at start with the install hint."""
    import importlib

    from dhcpless.tools import cli

    real = importlib.import_module

    def no_glean(name: str, package: str | None = None) -> object:
        if name.startswith("glean"):
            raise ModuleNotFoundError("No module named 'glean'", name="glean")
        return real(name, package)

    monkeypatch.setattr(importlib, "import_module", no_glean)
    assert cli.main(["demo", "--hosts", "1"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("dhcpless demo: the sandbox's ramdisk boot runs glean")
    assert "metal3-dhcpless[sandbox]" in err
