"""What the image installs: a wheel built as the Containerfile builds it, then served from.

The Containerfile prunes its copy of the source with `deploy/image_source.py` and installs the
result into a virtual environment it copies on (no wheel left in any layer). Here the same
prune runs on a copy, `pip wheel` builds the wheel (build isolation: the declared setuptools
floor is what builds it), and the test reads its file list and then imports the serving entry
point from that wheel alone: gunicorn's config and every app it can serve, with no sandbox,
demo or bench module importable, let alone imported.
"""

from __future__ import annotations

import importlib.util
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
from types import ModuleType

import pytest

from .support import ROOT, SERVED_PACKAGES

TOOLS = re.compile(r"^dhcpless/(sandbox/|tools/demo/|tools/bench/)")
"""The sandbox, demo and bench modules: in the distribution, never in the image."""

DROPPED = ("sandbox", "demo", "bench")
"""The first name under `dhcpless.` of every module the image must not hold."""

BUILD_TIMEOUT = 600.0
"""Generous: the wheel build resolves setuptools from the index, on a loaded machine."""


def _image_source() -> ModuleType:
    spec = importlib.util.spec_from_file_location("image_source", ROOT / "deploy/image_source.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel the image installs, built from a pruned copy of this checkout."""
    source, out = tmp_path_factory.mktemp("source"), tmp_path_factory.mktemp("wheel")
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info")
    for name in ("shared", "functions"):
        shutil.copytree(ROOT / name, source / name, ignore=ignore)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    assert _image_source().prune(source / "shared"), "nothing was pruned"
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), "."]
    subprocess.run(command, cwd=source, check=True, timeout=BUILD_TIMEOUT, capture_output=True)
    (built,) = out.glob("metal3_dhcpless-*.whl")
    return built


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


def test_the_source_tree_has_what_the_image_drops() -> None:
    """The prune list names real modules: a renamed tool module is caught here, not in prod."""
    shared = ROOT / "shared"
    present = [p.relative_to(shared).as_posix() for p in shared.rglob("*.py")]
    assert any(TOOLS.match(path) for path in present)
    for pattern in _image_source().EXCLUDED:
        assert list(shared.glob(pattern)), pattern


_PROBE = """
import json, os, runpy, sys
conf = runpy.run_path(sys.argv[1])
apps = [conf["app_for"](name) for name in sys.argv[2:]]
import importlib
for app in apps:
    importlib.import_module(app.split(":")[0])
import dhcpless.serving.serve, dhcpless.tools.cli
findable = [m for m in ("dhcpless_sandbox", "dhcpless_sandbox.demo", "dhcpless_sandbox.bench")
            if importlib.util.find_spec(m) is not None]
print(json.dumps({"modules": sorted(sys.modules), "findable": findable,
                  "from": os.path.dirname(dhcpless.serving.serve.__file__)}))
"""


def test_serving_entry_point_imports_none_of_them(wheel: Path, tmp_path: Path) -> None:
    """gunicorn's config and every app it serves, imported from the installed wheel alone."""
    target = tmp_path / "site"
    install = [sys.executable, "-m", "pip", "install", "--no-deps", "-q", "-t", str(target)]
    subprocess.run([*install, str(wheel)], check=True, timeout=BUILD_TIMEOUT, capture_output=True)
    probe = [sys.executable, "-S", "-c", _PROBE, str(ROOT / "deploy/gunicorn_conf.py")]
    # -S: no .pth file runs, so this checkout's editable install cannot leak in; the runtime
    # dependencies come from site-packages as a plain path after the wheel's install.
    path = os.pathsep.join([str(target), sysconfig.get_paths()["purelib"]])
    env = {"PYTHONPATH": path, "FUNCTION": "resync"}
    done = subprocess.run(
        ["env", "-i", *(f"{k}={v}" for k, v in env.items()), *probe, *SERVED_PACKAGES],
        capture_output=True, text=True, timeout=120, check=True, cwd=tmp_path,
    )  # fmt: skip
    seen = json.loads(done.stdout)
    assert seen["from"].startswith(str(target)), seen["from"]
    assert seen["findable"] == []
    tools = [m for m in seen["modules"] if m.split(".")[:2][-1].startswith(DROPPED)]
    assert [m for m in tools if m.startswith("dhcpless.")] == []
    assert "functions.host_registration.app" in seen["modules"]


def test_build_system_floor_reads_an_spdx_license() -> None:
    """`license = "<SPDX expression>"` (PEP 639) needs setuptools >= 77 to build at all."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert isinstance(project["project"]["license"], str)
    (requirement,) = [r for r in project["build-system"]["requires"] if "setuptools" in r]
    floor = re.fullmatch(r"setuptools\s*>=\s*(\d+)(?:\.\d+)*", requirement.strip())
    assert floor is not None and int(floor.group(1)) >= 77, requirement
