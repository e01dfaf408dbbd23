#!/usr/bin/env python3
"""One entry point for people and CI: set up `.venv` when needed, then run a task.

Usage: python3 scripts/dev.py {demo|test|fast|lint|bench|image|python} [args...]

`demo` and `bench` install only the runtime dependencies; the other tasks add the `dev`
group (tests, linters). `bench` runs `dhcpless bench` (the chain against the minimal
writes); `bench --pytest` runs the pytest benchmarks instead. `image --out DIR` builds the
Containerfile into an OCI layout (scripts/image.py: no registry, no daemon). The environment is
reinstalled only when pyproject.toml changes, and an environment with the `dev` group
also serves `demo`, so switching between tasks starts at once. Only the standard
library is used here, because this script runs before anything is installed.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import subprocess
import sys
import venv
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
SHARED = ROOT.parent / "shared"
"""The reference folder the tests read (upstream CRDs and schemas), beside the checkout."""
SHARED_NEEDS = ("crds", "schemas")
MIN_PIP = "25.1"  # the first pip that installs PEP 735 dependency groups (--group)


def _run(*args: str | os.PathLike[str], bytecode: bool = False) -> int:
    """Run a tool of the venv; `bytecode` lets Python write its caches even where the
    environment says not to (PYTHONDONTWRITEBYTECODE): see `task_test`."""
    env = dict(os.environ, PATH=str(BIN) + os.pathsep + os.environ.get("PATH", ""))
    if bytecode:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    return subprocess.call([os.fspath(a) for a in args], cwd=ROOT, env=env)


def _pip(*args: str) -> None:
    base: tuple[str | Path, ...] = (BIN / "python", "-m", "pip", "install", "-q")
    if code := _run(*base, "--disable-pip-version-check", *args):
        sys.exit(f"dev.py: pip failed with exit status {code}")


COVERS: dict[str, tuple[str, ...]] = {"runtime": ("runtime",), "dev": ("dev", "runtime")}
"""What one install provides: the `dev` group is installed on top of the runtime."""


PROJECTS = ("pyproject.toml", "sandbox/pyproject.toml")
"""The two distributions, the product and its sandbox: a change to either reinstalls."""


def _stamp(kind: str) -> Path:
    found = (ROOT / name for name in PROJECTS)
    digest = hashlib.sha256(b"".join(p.read_bytes() for p in found if p.is_file()))
    return VENV / f".installed-{kind}-{digest.hexdigest()[:16]}"


def ensure_env(group: str | None) -> None:
    """Create .venv and install both distributions, editable: the product with the `sandbox`
    extra the demo needs (the sandbox distribution, `./sandbox`, in the same install) and the
    `plot` extra the bench's figures need, plus one dependency group, unless an install for
    these pyproject.toml files covers it."""
    kind = group or "runtime"
    if _stamp(kind).exists():
        return
    if not (BIN / "python").exists():
        print("dev.py: creating .venv", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    print(f"dev.py: installing metal3-dhcpless ({group or 'runtime'} dependencies)", flush=True)
    _pip(f"pip>={MIN_PIP}")
    _pip("-e", ".[sandbox,plot]", "-e", "./sandbox", *(("--group", group) if group else ()))
    for old in VENV.glob(".installed-*"):
        old.unlink()
    for covered in COVERS.get(kind, (kind,)):
        _stamp(covered).touch()


def task_demo(args: list[str]) -> int:
    """`dhcpless demo` in the embedded sandbox."""
    ensure_env(None)
    return _run(BIN / "dhcpless", "demo", *args)


def task_lint(args: list[str]) -> int:
    """ruff, ruff format --check, mypy --strict over the whole tree, and the layer contracts
    (`lint-imports`, configured in pyproject.toml)."""
    ensure_env("dev")
    checks = (
        ("ruff", "check", "."),
        ("ruff", "format", "--check", "."),
        ("mypy",),
        ("lint-imports", "--no-cache"),
    )
    for tool, *rest in checks:
        print(f"dev.py: {tool} {' '.join(rest)}", flush=True)
        if code := _run(BIN / tool, *rest):
            return code
    return 0


WORKERS = min(4, 2 * (os.cpu_count() or 1))
"""Two pytest-xdist workers per core, at most 4: a third of the suite's time is tests waiting
(on a served gunicorn, a sandbox world, kubectl, a timeout under test), not computing. On two
cores, 4 workers took the suite from 206 s to 164 s (2 workers: CPU busy 1.3 of 2 cores)."""
PARALLEL = ("-n", str(WORKERS), "--dist", "loadgroup")
"""pytest-xdist: `WORKERS` workers, tests dealt out one by one except the
modules with an expensive module fixture (`KEPT_TOGETHER` in the root conftest.py). Arguments
given to `test` come after these, so `-n 0` runs in one process."""


def missing_prerequisite() -> str | None:
    """One line naming what the tests need and cannot find, or None: checked before anything
    runs, so a checkout without `../shared` is told so once, not by hundreds of failures."""
    absent = [name for name in SHARED_NEEDS if not (SHARED / name).is_dir()]
    if not absent:
        return None
    wanted = ", ".join(f"{name}/" for name in absent)
    return (
        f"dev.py: the tests need the reference folder {SHARED} beside the checkout "
        f"(../shared with {wanted}); it is missing (README: prerequisites)"
    )


def _prerequisites_met() -> bool:
    problem = missing_prerequisite()
    if problem is not None:
        print(problem, file=sys.stderr)
    return problem is None


def task_test(args: list[str]) -> int:
    """What CI runs: lint and types, then the whole pytest suite in parallel.

    The suite runs with bytecode caches written (into the gitignored `__pycache__` folders):
    without them every worker and every subprocess a test starts (the sandbox, gunicorn, the
    CLI) compiles the package and pytest rewrites every test module again, seconds each time.
    """
    if not _prerequisites_met():
        return 2
    _netns_packages()
    pytest: tuple[str | Path, ...] = (BIN / "python", "-m", "pytest", *PARALLEL, *args)
    return task_lint([]) or _run(*pytest, bytecode=True)


def _netns_packages() -> None:
    """The Debian packages of the netns tier (scripts/netns_packages.py), installed when
    missing and possible; otherwise say why (that tier then skips or fails, naming them)."""
    path = ROOT / "scripts" / "netns_packages.py"
    spec = importlib.util.spec_from_file_location("netns_packages", path)
    if spec is None or spec.loader is None or not path.is_file():
        return
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    if problem := module.ensure():
        print(f"dev.py: {problem}", file=sys.stderr)


def task_fast(args: list[str]) -> int:
    """The fast tier while you work: `-m "not slow"` (in-process tests only), in parallel like
    `test`, without the lint step."""
    if not _prerequisites_met():
        return 2
    ensure_env("dev")
    pytest: tuple[str | Path, ...] = (BIN / "python", "-m", "pytest", *PARALLEL, "-m", "not slow")
    pytest += tuple(args)
    return _run(*pytest, bytecode=True)


def task_bench(args: list[str]) -> int:
    """`dhcpless bench` (e.g. `bench --hosts 100`); `bench --pytest [args]` runs the pytest
    benchmarks, which report ratios and rates instead of asserting on time."""
    if args[:1] == ["--pytest"]:
        ensure_env("dev")
        return _run(BIN / "python", "-m", "pytest", "benchmarks", "-m", "bench", "-s", *args[1:])
    ensure_env(None)
    return _run(BIN / "dhcpless", "bench", *args)


def task_image(args: list[str]) -> int:
    """`image --out DIR`: the Containerfile built here into an OCI layout (scripts/image.py)."""
    sys.path.insert(0, str(ROOT / "scripts"))
    image = importlib.import_module("image")  # beside this script; only this task needs it
    code: int = image.main(args)
    return code


def task_python(args: list[str]) -> int:
    ensure_env("dev")
    return _run(BIN / "python", *args)


TASKS: dict[str, Callable[[list[str]], int]] = {
    "demo": task_demo,
    "test": task_test,
    "fast": task_fast,
    "lint": task_lint,
    "bench": task_bench,
    "image": task_image,
    "python": task_python,
}


def main() -> int:
    if len(sys.argv) < 2 or sys.argv[1] not in TASKS:
        print(__doc__, file=sys.stderr)
        return 2
    return TASKS[sys.argv[1]](sys.argv[2:])


if __name__ == "__main__":
    sys.exit(main())
