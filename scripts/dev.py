#!/usr/bin/env python3
"""One entry point for people and CI: set up `.venv` when needed, then run a task.

Usage: python3 scripts/dev.py {demo|test|lint|bench|shell} [args...]

The environment is (re)installed only when pyproject.toml changed since the last
install, so repeated runs start immediately. Only the standard library is used
here because this script runs before anything is installed.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
STAMP = VENV / ".dhcpless-installed"
MIN_PIP = "25.1"  # first pip that installs PEP 735 dependency groups (--group)


def _run(*args: str | os.PathLike[str]) -> int:
    return subprocess.call([os.fspath(a) for a in args], cwd=ROOT)


def _check(*args: str | os.PathLike[str]) -> None:
    code = _run(*args)
    if code:
        sys.exit(f"dev.py: command failed ({code}): {' '.join(map(str, args))}")


def ensure_env(groups: tuple[str, ...]) -> None:
    """Create .venv and install the project (editable) with the given dependency groups."""
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    wanted += ":" + ",".join(sorted(groups))
    if STAMP.exists() and set(STAMP.read_text().split(":")[1].split(",")) >= set(groups) and (
        STAMP.read_text().split(":")[0] == wanted.split(":")[0]
    ):
        return
    if not (BIN / "python").exists():
        print("dev.py: creating .venv", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    py = BIN / "python"
    _check(py, "-m", "pip", "install", "-q", "--disable-pip-version-check", f"pip>={MIN_PIP}")
    group_args = [arg for g in groups for arg in ("--group", g)]
    print(f"dev.py: installing metal3-dhcpless with {', '.join(groups) or 'runtime'} deps", flush=True)
    _check(py, "-m", "pip", "install", "-q", "--disable-pip-version-check", "-e", ".", *group_args)
    STAMP.write_text(wanted)


def task_demo(args: list[str]) -> int:
    ensure_env(())
    return _run(BIN / "dhcpless", "demo", *args)


def task_lint(args: list[str]) -> int:
    ensure_env(("dev",))
    for cmd in (
        (BIN / "ruff", "check", "."),
        (BIN / "ruff", "format", "--check", "."),
        (BIN / "mypy",),
    ):
        print("dev.py: " + " ".join(Path(c).name if i == 0 else str(c) for i, c in enumerate(cmd)),
              flush=True)
        if code := _run(*cmd):
            return code
    return 0


def task_test(args: list[str]) -> int:
    """Lint and type-check, then the whole pytest suite (what CI runs)."""
    if code := task_lint([]):
        return code
    env_bin = str(BIN)
    os.environ["PATH"] = env_bin + os.pathsep + os.environ.get("PATH", "")
    return _run(BIN / "python", "-m", "pytest", *args)


def task_bench(args: list[str]) -> int:
    ensure_env(("dev",))
    os.environ["PATH"] = str(BIN) + os.pathsep + os.environ.get("PATH", "")
    return _run(BIN / "python", "-m", "pytest", "benchmarks", "-p", "no:randomly", *args)


def task_shell(args: list[str]) -> int:
    ensure_env(("dev",))
    return _run(BIN / "python", *args)


TASKS = {"demo": task_demo, "test": task_test, "lint": task_lint, "bench": task_bench,
         "shell": task_shell}


def main() -> int:
    if len(sys.argv) < 2 or sys.argv[1] not in TASKS:
        print(__doc__, file=sys.stderr)
        return 2
    return TASKS[sys.argv[1]](sys.argv[2:])


if __name__ == "__main__":
    sys.exit(main())
