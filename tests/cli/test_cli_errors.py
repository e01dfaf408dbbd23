"""Every `dhcpless` error a user can cause is one line on stderr naming the problem.

Covers: a busy `--port`, a kubeconfig in a directory that does not exist, and files given to
`render` that are binary, not UTF-8, malformed YAML (with line and column), or missing. The
console script runs as a real subprocess; no traceback may reach the user.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import yaml

from tests.support.waits import seconds

DHCPLESS = Path(sys.executable).parent / "dhcpless"
MALFORMED = "kind: BareMetalHost\nmetadata:\n  name: [h1\nspec: {}\n"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(DHCPLESS), *args], capture_output=True, text=True, timeout=seconds(60), check=False
    )


def assert_one_line(result: subprocess.CompletedProcess[str], *needles: str) -> str:
    """The command failed with exactly one stderr line containing every needle."""
    lines = result.stderr.strip().splitlines()
    assert result.returncode != 0, result.stdout
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    assert all(needle in lines[0] for needle in needles), lines[0]
    return lines[0]


@pytest.fixture
def busy_port() -> Iterator[int]:
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        yield int(holder.getsockname()[1])


@pytest.mark.slow
def test_busy_port_is_one_line(busy_port: int, tmp_path: Path) -> None:
    result = run("sandbox", "--port", str(busy_port), "--kubeconfig", str(tmp_path / "k"))
    line = assert_one_line(result, str(busy_port), "in use")
    assert line.startswith("dhcpless sandbox:")
    assert not (tmp_path / "k").exists()


@pytest.mark.parametrize(
    ("command", "option"),
    [
        pytest.param(["sandbox"], "--kubeconfig", id="sandbox-kubeconfig"),
        pytest.param(["bench", "--hosts", "1"], "--plot", id="bench-plot"),
    ],
)
def test_a_path_in_a_missing_directory_is_one_line(
    tmp_path: Path, command: list[str], option: str
) -> None:
    missing = tmp_path / "no-such-dir"
    result = run(*command, option, str(missing / "file"))
    assert_one_line(result, option, str(missing), "does not exist")
    assert not missing.exists()


def test_a_malformed_kubeconfig_is_one_line_with_line_and_column(tmp_path: Path) -> None:
    kubeconfig = _write(tmp_path, MALFORMED.encode())
    done = subprocess.run(
        [str(DHCPLESS), "status"],
        env={**os.environ, "KUBECONFIG": str(kubeconfig)},
        capture_output=True,
        text=True,
        timeout=seconds(60),
        check=False,
    )
    assert_one_line(done, f"{kubeconfig}:{_yaml_mark(MALFORMED)}:", "malformed YAML")


def _yaml_mark(text: str) -> str:
    """`line:column` (1-based) where PyYAML itself stops on `text`."""
    with pytest.raises(yaml.MarkedYAMLError) as caught:
        list(yaml.safe_load_all(text))
    mark = caught.value.problem_mark
    assert mark is not None
    return f"{mark.line + 1}:{mark.column + 1}"


def _write(tmp_path: Path, data: bytes) -> Path:
    path = tmp_path / "input.yaml"
    path.write_bytes(data)
    return path


Case = Callable[[Path], tuple[Path, list[str]]]


def _binary(tmp_path: Path) -> tuple[Path, list[str]]:
    path = _write(tmp_path, bytes([0x7F, 0x45, 0x4C, 0x46, 0xD0, 0xFF, 0x00]))
    return path, [str(path), "not a YAML text file"]


def _control_bytes(tmp_path: Path) -> tuple[Path, list[str]]:
    path = _write(tmp_path, b"kind: List\n\x00\x01\n")
    return path, [str(path), "not a YAML text file"]


def _malformed(tmp_path: Path) -> tuple[Path, list[str]]:
    path = _write(tmp_path, MALFORMED.encode())
    return path, [f"{path}:{_yaml_mark(MALFORMED)}:", "malformed YAML"]


def _missing(tmp_path: Path) -> tuple[Path, list[str]]:
    path = tmp_path / "absent.yaml"
    return path, [str(path), "No such file"]


@pytest.mark.parametrize(
    "case",
    [
        pytest.param(_binary, id="binary"),
        pytest.param(_control_bytes, id="control-bytes"),
        pytest.param(_malformed, id="malformed-yaml-line-column"),
        pytest.param(_missing, id="missing-file"),
    ],
)
def test_render_input_problems_are_one_line(tmp_path: Path, case: Case) -> None:
    path, needles = case(tmp_path)
    result = run("render", "--template", str(path), "--host", str(path))
    assert_one_line(result, *needles)
    assert result.stdout == ""
