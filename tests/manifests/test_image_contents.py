"""What the image installs: the product's wheel, built as the Containerfile builds it, then served.

The repository holds two distributions: the product (`pyproject.toml`: functions, chain,
render, kube, serving, the operator's commands) and the sandbox (`sandbox/pyproject.toml`: API
server, stand-ins, runtime, demo, bench). Here `pip wheel` builds each from a copy of the
checkout (build isolation: the declared setuptools floor is what builds them), the test reads
their file lists, and then imports the serving entry point from the product's wheel alone:
gunicorn's config and every app it can serve, with no sandbox, demo or bench module importable,
let alone imported.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tomllib
import zipfile
from pathlib import Path

import pytest

from .support import ROOT, SERVED_PACKAGES

TOOLS = re.compile(r"^(dhcpless/(sandbox/|tools/demo/|tools/bench/)|dhcpless_sandbox/)")
"""The sandbox, demo and bench modules: in the sandbox's distribution, never in the image."""

TESTS = re.compile(r"(^|/)(tests?|conftest|test_[^/]*)(/|\.py$)")
"""A test module or package, at any depth."""

DROPPED = ("sandbox", "demo", "bench")
"""The first name under `dhcpless.` of every module the image must not hold."""

BUILD_TIMEOUT = 600.0
"""Generous: the wheel build resolves setuptools from the index, on a loaded machine."""


def _checkout(into: Path) -> Path:
    """The files of this checkout a clean clone has (tracked, or new and not ignored)."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT, check=True, capture_output=True, timeout=60,
    ).stdout.decode().split("\0")  # fmt: skip
    for name in filter(None, listed):
        if (ROOT / name).is_file():
            (into / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, into / name)
    return into


@pytest.fixture(scope="module")
def wheels(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Both wheels, built from one copy of the checkout: the product's from its root (what
    the Containerfile installs), the sandbox's from `sandbox/`."""
    source = _checkout(tmp_path_factory.mktemp("source"))
    out = tmp_path_factory.mktemp("wheel")
    for folder in (source, source / "sandbox"):
        command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), "."]
        subprocess.run(command, cwd=folder, check=True, timeout=BUILD_TIMEOUT, capture_output=True)
    (product,) = out.glob("metal3_dhcpless-*.whl")
    (sandbox,) = out.glob("metal3_dhcpless_sandbox-*.whl")
    return {"product": product, "sandbox": sandbox}


@pytest.fixture(scope="module")
def wheel(wheels: dict[str, Path]) -> Path:
    """The wheel the image installs."""
    return wheels["product"]


def _names(wheel: Path) -> list[str]:
    with zipfile.ZipFile(wheel) as archive:
        return archive.namelist()


def test_wheel_holds_no_sandbox_demo_or_bench_module(wheel: Path) -> None:
    names = _names(wheel)
    assert [name for name in names if TOOLS.match(name)] == []
    served = [f"functions/{package}/app.py" for package in SERVED_PACKAGES.values()]
    assert set(served) <= set(names), "the wheel must still hold every app the image serves"
    assert {"dhcpless/serving/serve.py", "dhcpless/serving/web.py", "dhcpless/tools/cli.py"} <= set(
        names
    )


def test_wheel_holds_no_test_module(wheel: Path) -> None:
    assert [name for name in _names(wheel) if TESTS.search(name)] == []


def test_the_sandbox_wheel_holds_the_sandbox_and_nothing_of_the_product(
    wheels: dict[str, Path],
) -> None:
    """The other distribution: every sandbox, demo and bench module, and the three commands it
    adds to `dhcpless`; none of the product's modules and no test."""
    names = _names(wheels["sandbox"])
    modules = [name for name in names if name.endswith(".py")]
    assert modules and all(TOOLS.match(name) for name in modules), modules
    for part in ("demo/run.py", "bench/run.py", "apiserver/server.py", "commands.py"):
        assert f"dhcpless_sandbox/{part}" in names, part
    assert [name for name in names if TESTS.search(name)] == []
    (points,) = [name for name in names if name.endswith(".dist-info/entry_points.txt")]
    with zipfile.ZipFile(wheels["sandbox"]) as archive:
        text = archive.read(points).decode()
    commands = text.split("[dhcpless.commands]")[1].split("[")[0]
    assert {line.split("=")[0].strip() for line in commands.split("\n") if "=" in line} == {
        "demo",
        "sandbox",
        "bench",
    }


def test_the_source_tree_has_what_the_image_drops() -> None:
    """The sandbox's folder holds the sandbox, demo and bench modules, the product's none: a
    tool module moved back into `shared/` is caught here, not in prod."""
    shared = ROOT / "shared"
    sandbox = ROOT / "sandbox" / "src"
    in_product = [p.relative_to(shared).as_posix() for p in shared.rglob("*.py")]
    in_sandbox = [p.relative_to(sandbox).as_posix() for p in sandbox.rglob("*.py")]
    assert not any(TOOLS.match(path) for path in in_product)
    for part in ("dhcpless_sandbox/demo/", "dhcpless_sandbox/bench/", "dhcpless_sandbox/runtime/"):
        assert any(path.startswith(part) for path in in_sandbox), part


_PROBE = """
import json, os, runpy, sys
conf = runpy.run_path(sys.argv[1])
apps = [conf["app_for"](name) for name in sys.argv[2:]]
import importlib
for app in apps:
    importlib.import_module(app.split(":")[0])
import dhcpless.serving.serve, dhcpless.tools.cli
def found(name):
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:  # its parent package is absent
        return False
findable = [m for m in ("dhcpless_sandbox", "dhcpless_sandbox.demo", "dhcpless_sandbox.bench")
            if found(m)]
print(json.dumps({"modules": sorted(sys.modules), "findable": findable,
                  "from": os.path.dirname(dhcpless.serving.serve.__file__)}))
"""


def _installed(wheel: Path, tmp_path: Path) -> tuple[list[str], dict[str, str]]:
    """The wheel installed alone into a folder; the command prefix and environment that run
    Python on it. -S: no .pth file runs, so this checkout's editable installs cannot leak in;
    the runtime dependencies come from site-packages as a plain path after the wheel's."""
    target = tmp_path / "site"
    install = [sys.executable, "-m", "pip", "install", "--no-deps", "-q", "-t", str(target)]
    subprocess.run([*install, str(wheel)], check=True, timeout=BUILD_TIMEOUT, capture_output=True)
    path = os.pathsep.join([str(target), sysconfig.get_paths()["purelib"]])
    env = {"PYTHONPATH": path, "FUNCTION": "resync"}
    return ["env", "-i", *(f"{k}={v}" for k, v in env.items()), sys.executable, "-S"], env


def test_serving_entry_point_imports_none_of_them(wheel: Path, tmp_path: Path) -> None:
    """gunicorn's config and every app it serves, imported from the installed wheel alone."""
    python, env = _installed(wheel, tmp_path)
    probe = [*python, "-c", _PROBE, str(ROOT / "deploy/gunicorn_conf.py")]
    done = subprocess.run(
        [*probe, *SERVED_PACKAGES],
        capture_output=True, text=True, timeout=120, check=True, cwd=tmp_path,
    )  # fmt: skip
    seen = json.loads(done.stdout)
    assert seen["from"].startswith(env["PYTHONPATH"].split(os.pathsep)[0]), seen["from"]
    assert seen["findable"] == []
    tools = [m for m in seen["modules"] if m.split(".")[:2][-1].startswith(DROPPED)]
    assert [m for m in tools if m.startswith("dhcpless.")] == []
    assert "functions.host_registration.app" in seen["modules"]


@pytest.mark.parametrize("command", ["demo", "sandbox", "bench"])
def test_without_the_sandbox_its_commands_name_the_distribution(
    wheel: Path, tmp_path: Path, command: str
) -> None:
    """The product alone (the image, `pip install metal3-dhcpless`): a sandbox command is one
    line naming the distribution to install, exit 2, whatever its arguments."""
    python, _ = _installed(wheel, tmp_path)
    program = (
        "import sys; from dhcpless.tools.cli import main\n"
        f"sys.exit(main([{command!r}, *sys.argv[1:]]))"
    )
    done = subprocess.run(
        [*python, "-c", program, "--hosts", "20", "--json"],
        capture_output=True, text=True, timeout=120, check=False, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert done.stdout == "" and done.stderr.count("\n") == 1, done.stderr
    assert done.stderr.startswith(f"dhcpless {command}: needs the sandbox distribution")
    assert "metal3-dhcpless-sandbox" in done.stderr and "metal3-dhcpless[sandbox]" in done.stderr


def test_build_system_floor_reads_an_spdx_license() -> None:
    """`license = "<SPDX expression>"` (PEP 639) needs setuptools >= 77 to build at all."""
    for name in ("pyproject.toml", "sandbox/pyproject.toml"):
        project = tomllib.loads((ROOT / name).read_text())
        assert isinstance(project["project"]["license"], str)
        (requirement,) = [r for r in project["build-system"]["requires"] if "setuptools" in r]
        floor = re.fullmatch(r"setuptools\s*>=\s*(\d+)(?:\.\d+)*", requirement.strip())
        assert floor is not None and int(floor.group(1)) >= 77, requirement
