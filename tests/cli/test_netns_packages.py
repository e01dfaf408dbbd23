"""scripts/netns_packages.py: the netns tier's Debian packages, installed by `dev.py test`.

The script is loaded from its file with apt-get replaced by a recorder and `policy-rc.d`
pointed at a temporary path, so these tests install nothing.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"{name}_under_test", SCRIPTS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def packages(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """The script with one present and two missing entries (a command and a package)."""
    module = _load("netns_packages")
    tools = {"sh": "dash", "no-such-command-here": "pkg-a", "dpkg:no-such-package": "pkg-b"}
    monkeypatch.setattr(module, "TOOLS", tools)
    monkeypatch.setattr(module, "POLICY", tmp_path / "policy-rc.d")
    return module


def test_missing_names_the_packages_of_absent_commands_and_files(packages: ModuleType) -> None:
    assert packages.missing() == ["pkg-a", "pkg-b"]


def test_without_root_nothing_is_installed_and_the_reason_names_the_packages(
    packages: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(packages.os, "geteuid", lambda: 1000)
    monkeypatch.setattr(packages.subprocess, "call", lambda *a, **k: pytest.fail("ran apt-get"))
    assert packages.ensure() == "the netns tier needs pkg-a, pkg-b (Debian packages, as root)"


def test_as_root_apt_installs_what_is_missing_with_service_starts_refused(
    packages: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    ran: list[tuple[list[str], str]] = []

    def call(argv: list[str], **kwargs: object) -> int:
        ran.append((argv, packages.POLICY.read_text()))  # the policy holds during apt-get
        return 0

    monkeypatch.setattr(packages.os, "geteuid", lambda: 0)
    monkeypatch.setattr(packages.shutil, "which", lambda name, path=None: f"/usr/bin/{name}")
    monkeypatch.setattr(packages.subprocess, "call", call)
    monkeypatch.setattr(packages, "missing", lambda: ["pkg-a", "pkg-b"])
    assert packages.ensure() is None
    assert [argv for argv, _ in ran] == [
        ["apt-get", "update", "-qq"],
        ["apt-get", "install", "-y", "-qq", "pkg-a", "pkg-b"],
    ]
    assert all(policy.endswith("exit 101\n") for _, policy in ran)
    assert not packages.POLICY.exists()  # ours, so removed afterwards


def test_dev_test_installs_them_before_pytest(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    dev = _load("dev")
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "netns_packages.py").write_text(
        "import pathlib\ndef ensure():\n"
        f"    pathlib.Path({str(tmp_path / 'ensured')!r}).touch()\n    return None\n"
    )
    order: list[bool] = []

    def run(*command: object, bytecode: bool = False) -> int:
        order.append((tmp_path / "ensured").exists())
        return 0

    monkeypatch.setattr(dev, "ROOT", tmp_path)
    monkeypatch.setattr(dev, "missing_prerequisite", lambda: None)
    monkeypatch.setattr(dev, "task_lint", lambda _: 0)
    monkeypatch.setattr(dev, "_run", run)
    assert dev.task_test([]) == 0
    assert order == [True]  # pytest ran once, after the install
