"""`serving.headguard`: every way we run gunicorn uses the worker with the head deadline."""

from __future__ import annotations

import runpy

import pytest
from gunicorn.util import load_class  # type: ignore[import-untyped]

from dhcpless.serving import headguard
from dhcpless_sandbox.runtime import processes
from tests.manifests.support import ROOT


def test_gunicorn_loads_the_worker_by_its_name() -> None:
    assert load_class(headguard.WORKER_CLASS) is headguard.HeadGuardedWorker


@pytest.mark.parametrize(
    "configured",
    [
        pytest.param(
            lambda: runpy.run_path(str(ROOT / "deploy" / "gunicorn_conf.py"))["worker_class"],
            id="image",
        ),
        pytest.param(
            lambda: processes.GUNICORN_ARGS[processes.GUNICORN_ARGS.index("--worker-class") + 1],
            id="sandbox-processes",
        ),
    ],
)
def test_every_server_runs_it(configured: object, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FUNCTION", "host-registration")
    assert callable(configured) and configured() == headguard.WORKER_CLASS
