"""`dhcpless status` finds its cluster as kubectl does: `KUBECONFIG` lists merged, `--kubeconfig`,
`--context`; a kubeconfig it cannot use is one line naming the file, exit 1, never a traceback."""

from __future__ import annotations

import json
import os
import socket
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from dhcpless.tools import cli
from dhcpless_sandbox.apiserver.server import SandboxServer

Setup = Callable[[Path, str], tuple[list[str], str]]


@pytest.fixture(scope="module")
def server() -> Iterator[SandboxServer]:
    with SandboxServer() as srv:
        srv.load_builtin_crds()
        yield srv


def _closed_port_url() -> str:
    with socket.socket() as probe:  # a port the kernel chose, released: nothing listens
        probe.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{probe.getsockname()[1]}"


def _write(path: Path, document: dict[str, Any]) -> str:
    path.write_text(yaml.safe_dump(document))
    return str(path)


def _context(name: str, cluster: str) -> dict[str, Any]:
    return {"name": name, "context": {"cluster": cluster, "user": "me"}}


def _cluster(name: str, url: str) -> dict[str, Any]:
    return {"name": name, "cluster": {"server": url}}


def _merged(tmp: Path, url: str) -> tuple[list[str], str]:
    """The context and user in one file, the cluster in the next: only a merge finds it."""
    first = {"current-context": "s", "contexts": [_context("s", "s")], "users": [{"name": "me"}]}
    second = {"clusters": [_cluster("s", url)], "current-context": "ignored"}
    listed = [_write(tmp / "a", first), str(tmp / "missing"), _write(tmp / "b", second)]
    return [f"KUBECONFIG={os.pathsep.join(listed)}"], ""


def _with_context(tmp: Path, url: str) -> tuple[list[str], str]:
    """The current context points at nothing; `--context` chooses the live one."""
    contexts = [_context("dead", "dead"), _context("live", "live")]
    clusters = [_cluster("dead", _closed_port_url()), _cluster("live", url)]
    doc = {"current-context": "dead", "contexts": contexts, "clusters": clusters, "users": []}
    return ["--kubeconfig", _write(tmp / "k", doc), "--context", "live"], ""


def _missing(tmp: Path, url: str) -> tuple[list[str], str]:
    return [f"KUBECONFIG={tmp / 'nope'}"], f"KUBECONFIG={tmp / 'nope'}: no such file"


def _explicit_missing(tmp: Path, url: str) -> tuple[list[str], str]:
    return ["--kubeconfig", str(tmp / "nope")], f"--kubeconfig {tmp / 'nope'}: no such file"


def _binary(tmp: Path, url: str) -> tuple[list[str], str]:
    (tmp / "bin").write_bytes(bytes(range(256)))
    return [f"KUBECONFIG={tmp / 'bin'}"], f"kubeconfig {tmp / 'bin'}: not a text file"


def _broken_yaml(tmp: Path, url: str) -> tuple[list[str], str]:
    (tmp / "y").write_text("clusters: [\n")
    return [f"KUBECONFIG={tmp / 'y'}"], f"kubeconfig: malformed YAML at {tmp / 'y'}:2:1"


def _nothing(tmp: Path, url: str) -> tuple[list[str], str]:
    """No KUBECONFIG, no ~/.kube/config, not in a pod: both places are named."""
    return ["HOME=" + str(tmp)], "KUBECONFIG is not set and ~/.kube/config does not exist"


def _unknown_context(tmp: Path, url: str) -> tuple[list[str], str]:
    doc = {"current-context": "s", "contexts": [_context("s", "s")], "clusters": []}
    path = _write(tmp / "k", doc)
    return [
        "--kubeconfig",
        path,
        "--context",
        "other",
    ], f'context "other" not found in kubeconfig {path}'


def _run(args: list[str], monkeypatch: pytest.MonkeyPatch, capsys: Any) -> tuple[int, str, str]:
    options = [a for a in args if not a.startswith(("KUBECONFIG=", "HOME="))]
    monkeypatch.setenv("KUBECONFIG", "")
    for setting in set(args) - set(options):
        name, _, value = setting.partition("=")
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("KUBERNETES_SERVICE_HOST", raising=False)
    code = cli.main(["status", "--json", *options])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize(
    "setup",
    [pytest.param(_merged, id="merged-list"), pytest.param(_with_context, id="context-flag")],
)
def test_the_cluster_is_found_as_kubectl_finds_it(
    server: SandboxServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: Any,
    setup: Setup,
) -> None:
    args, _ = setup(tmp_path, server.url)
    code, out, err = _run(args, monkeypatch, capsys)
    assert (code, err) == (0, "")
    assert json.loads(out) == {"hosts": []}


@pytest.mark.parametrize(
    "setup",
    [
        pytest.param(_missing, id="missing-file"),
        pytest.param(_explicit_missing, id="missing-explicit"),
        pytest.param(_binary, id="binary"),
        pytest.param(_broken_yaml, id="broken-yaml"),
        pytest.param(_unknown_context, id="unknown-context"),
        pytest.param(_nothing, id="no-kubeconfig-anywhere"),
    ],
)
def test_an_unusable_kubeconfig_is_one_line_naming_it(
    server: SandboxServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: Any,
    setup: Setup,
) -> None:
    args, expected = setup(tmp_path, server.url)
    code, out, err = _run(args, monkeypatch, capsys)
    assert (code, out) == (1, "")
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert expected in err
