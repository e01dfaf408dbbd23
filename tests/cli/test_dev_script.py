"""scripts/dev.py: switching between tasks does not reinstall, and `bench` runs `dhcpless bench`.

The script is loaded from its file with its paths pointed at a temporary directory and pip
replaced by a recorder, so these tests install nothing.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "dev.py"


def _load(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[ModuleType, list[str]]:
    """dev.py with ROOT/.venv under tmp_path; returns it and the list its installs append to."""
    spec = importlib.util.spec_from_file_location("dev_under_test", SCRIPT)
    assert spec is not None and spec.loader is not None
    dev = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(dev)
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'x'\n")
    venv = tmp_path / ".venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").touch()
    installs: list[str] = []
    monkeypatch.setattr(dev, "ROOT", tmp_path)
    monkeypatch.setattr(dev, "VENV", venv)
    monkeypatch.setattr(dev, "BIN", venv / "bin")
    monkeypatch.setattr(dev, "_pip", lambda *args: installs.append(" ".join(args)))
    shared = tmp_path / "shared"
    for name in dev.SHARED_NEEDS:
        (shared / name).mkdir(parents=True)
    monkeypatch.setattr(dev, "SHARED", shared)
    return dev, installs


@pytest.mark.parametrize(
    ("sequence", "expected_groups"),
    [
        pytest.param(["demo", "test", "demo", "test"], [None, "dev"], id="demo-test-demo-test"),
        pytest.param(["test", "demo", "test", "demo"], ["dev"], id="test-then-demo"),
        pytest.param(["demo", "demo"], [None], id="demo-twice"),
    ],
)
def test_switching_tasks_does_not_reinstall(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    sequence: list[str],
    expected_groups: list[str | None],
) -> None:
    dev, installs = _load(tmp_path, monkeypatch)
    for task in sequence:
        dev.ensure_env("dev" if task == "test" else None)
    projects = [line for line in installs if line.startswith("-e")]
    assert projects == [
        "-e .[sandbox,plot] -e ./sandbox" + (f" --group {group}" if group else "")
        for group in expected_groups
    ]


def test_a_changed_pyproject_reinstalls(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    dev, installs = _load(tmp_path, monkeypatch)
    dev.ensure_env("dev")
    before = len(installs)
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'y'\n")
    dev.ensure_env(None)
    assert len(installs) > before


@pytest.mark.parametrize(
    ("args", "expected_tail"),
    [
        pytest.param(["--hosts", "100"], ["dhcpless", "bench", "--hosts", "100"], id="cli-bench"),
        pytest.param(
            ["--pytest", "-k", "floor"],
            ["-m", "pytest", "benchmarks", "-m", "bench", "-s", "-k", "floor"],
            id="pytest-benchmarks",
        ),
    ],
)
def test_bench_runs_the_cli_unless_asked_for_pytest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], expected_tail: list[str]
) -> None:
    dev, _ = _load(tmp_path, monkeypatch)
    ran: list[list[str]] = []

    def run(*command: str | Path) -> int:
        ran.append([Path(command[0]).name, *map(str, command[1:])])
        return 0

    monkeypatch.setattr(dev, "_run", run)
    assert dev.task_bench(args) == 0
    (command,) = ran
    assert command[-len(expected_tail) :] == expected_tail


@pytest.mark.parametrize(
    ("args", "workers"),
    [
        pytest.param([], str(min(4, 2 * (os.cpu_count() or 1))), id="two-per-core-by-default"),
        pytest.param(["-n", "0", "-x"], "0", id="one-process-when-asked"),
    ],
)
def test_test_runs_the_suite_in_parallel_writing_bytecode(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], workers: str
) -> None:
    dev, _ = _load(tmp_path, monkeypatch)
    ran: list[tuple[list[str], bool]] = []

    def run(*command: str | Path, bytecode: bool = False) -> int:
        ran.append(([Path(command[0]).name, *map(str, command[1:])], bytecode))
        return 0

    monkeypatch.setattr(dev, "_run", run)
    monkeypatch.setattr(dev, "task_lint", lambda _: 0)
    assert dev.task_test(args) == 0
    ((command, bytecode),) = ran
    assert command[:3] == ["python", "-m", "pytest"] and bytecode
    assert command[len(command) - len(args) :] == args  # the caller's arguments come last
    last = len(command) - 1 - command[::-1].index("-n")  # pytest takes the last -n given
    assert (command[last + 1], command[command.index("--dist") + 1]) == (workers, "loadgroup")


def test_fast_runs_the_fast_tier_in_parallel_without_lint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dev, _ = _load(tmp_path, monkeypatch)
    ran: list[list[str]] = []
    monkeypatch.setattr(dev, "ensure_env", lambda group: None)
    monkeypatch.setattr(dev, "task_lint", lambda _: pytest.fail("the fast tier lints nothing"))

    def run(*command: str | Path, bytecode: bool = False) -> int:
        ran.append([*map(str, command)])
        return 0

    monkeypatch.setattr(dev, "_run", run)
    assert dev.task_fast(["-x"]) == 0
    ((command,),) = [ran]
    assert command[command.index("-m", 3) + 1] == "not slow" and command[-1] == "-x"
    assert command[command.index("-n") + 1] == str(min(4, 2 * (os.cpu_count() or 1)))


@pytest.mark.parametrize("task", ["test", "fast"])
def test_without_shared_the_tests_stop_with_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], task: str
) -> None:
    dev, _ = _load(tmp_path, monkeypatch)
    monkeypatch.setattr(dev, "SHARED", tmp_path / "elsewhere" / "shared")
    monkeypatch.setattr(dev, "_run", lambda *a, **k: pytest.fail("pytest started"))
    monkeypatch.setattr(dev, "task_lint", lambda _: pytest.fail("lint started"))
    monkeypatch.setattr(dev, "ensure_env", lambda group: pytest.fail("venv set up"))
    assert getattr(dev, f"task_{task}")([]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert str(tmp_path / "elsewhere" / "shared") in err and "crds/, schemas/" in err


def test_script_uses_only_the_standard_library() -> None:
    source = SCRIPT.read_text()
    imported = {
        line.split()[1].split(".")[0]
        for line in source.splitlines()
        if line.startswith(("import ", "from "))
    }
    assert imported <= set(sys.stdlib_module_names) | {"__future__"}
