"""One settings object per function, read from the environment once, in the app factory.

Covers: each function's factory builds its settings from the environment when none is given
(resync's carries its own fields) and they do not change when the environment does
afterwards; settings are frozen; resync's one object from every way a caller may pass it; the
common `Settings` is importable without Flask; the README's table names every variable.
"""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest
from kubernetes import client as k8s
from pydantic import ValidationError

from dhcpless import keys, registry
from dhcpless.kube import Kube
from dhcpless.settings import Settings
from functions.resync.settings import ResyncSettings, one_settings
from tests.support.waits import seconds

ROOT = Path(__file__).resolve().parents[2]
FED = [pytest.param(f, id=f.name) for f in registry.FUNCTIONS if f.takes_client]


@pytest.mark.parametrize("function", FED)
def test_the_factory_reads_the_environment_once(
    function: registry.Function, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(keys.NAMESPACE_ENV, "ns-at-start")
    monkeypatch.setenv(keys.HANG_SECONDS_ENV, "42")
    app = importlib.import_module(function.module).create_app(Kube(k8s.ApiClient()))
    settings = app.config["DHCPLESS_SETTINGS"]
    monkeypatch.setenv(keys.NAMESPACE_ENV, "ns-later")
    assert type(settings) is (ResyncSettings if function.name == "resync" else Settings)
    if isinstance(settings, ResyncSettings):
        assert (settings.namespace, settings.hang_seconds) == ("ns-at-start", 42.0)
    assert app.config["DHCPLESS_SETTINGS"] is settings


def test_settings_are_frozen() -> None:
    settings = Settings.from_environment({})
    with pytest.raises(ValidationError):
        settings.record_events = False
    assert settings == Settings()


QUIET = Settings(record_events=False)
GIVEN = ResyncSettings(namespace="given", hang_seconds=5)


@pytest.mark.parametrize(
    ("settings", "resync", "expected"),
    [
        pytest.param(GIVEN, None, ("given", 5.0, True), id="resync-settings-as-settings"),
        pytest.param(None, GIVEN, ("given", 5.0, True), id="older-resync-keyword"),
        pytest.param(QUIET, GIVEN, ("given", 5.0, False), id="common-fields-merged"),
        pytest.param(QUIET, None, ("from-env", 900.0, False), id="environment-merged"),
    ],
)
def test_resync_runs_with_one_object(
    settings: Settings | None,
    resync: ResyncSettings | None,
    expected: tuple[str, float, bool],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(keys.NAMESPACE_ENV, "from-env")
    monkeypatch.delenv(keys.HANG_SECONDS_ENV, raising=False)
    chosen = one_settings(settings, resync)
    assert (chosen.namespace, chosen.hang_seconds, chosen.record_events) == expected


def test_settings_do_not_import_flask_or_the_client() -> None:
    code = (
        "import sys, dhcpless.settings; print(sorted({'flask', 'kubernetes'} & set(sys.modules)))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=seconds(60)
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize(
    "variable",
    ["FUNCTION", "PORT", "KUBECONFIG", keys.NAMESPACE_ENV, keys.NAMESPACE_SELECTOR_ENV,
     keys.HANG_SECONDS_ENV, keys.WATCH_CACHE_ENV, keys.RAMDISK_PROFILE_ENV],
)  # fmt: skip
def test_the_readme_table_names_every_variable(variable: str) -> None:
    readme = (ROOT / "README.md").read_text()
    table = readme[readme.index("## Configuration") : readme.index("## Performance")]
    assert f"| `{variable}` |" in table


@pytest.mark.parametrize("settings", [Settings, ResyncSettings])
@pytest.mark.parametrize(
    ("value", "profile"),
    [
        pytest.param("", keys.RamdiskProfile.GLEAN_EL9, id="unset"),
        pytest.param("nmstate", keys.RamdiskProfile.NMSTATE, id="nmstate"),
        pytest.param(" glean-el10 ", keys.RamdiskProfile.GLEAN_EL10, id="padded"),
    ],
)
def test_the_fleet_s_ramdisk_profile_comes_from_the_environment(
    settings: type[Settings], value: str, profile: keys.RamdiskProfile
) -> None:
    environ = {keys.RAMDISK_PROFILE_ENV: value} if value else {}
    assert settings.from_environment(environ).ramdisk_profile is profile


def test_an_unknown_ramdisk_profile_stops_the_function_at_start() -> None:
    with pytest.raises(ValidationError, match="ramdisk_profile"):
        Settings.from_environment({keys.RAMDISK_PROFILE_ENV: "glean-el8"})
