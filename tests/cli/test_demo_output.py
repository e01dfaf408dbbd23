"""What the demo prints for people: expected conflicts counted, not shown as failures; warnings
as one line without a traceback; `--chaos` without `--json` prints words, not JSON."""

from __future__ import annotations

import io
import json
import logging
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from dhcpless_sandbox.demo.logs import EXPECTED_CONFLICT, demo_logs
from dhcpless_sandbox.demo.report import print_summary
from tests.support.waits import seconds

DHCPLESS = Path(sys.executable).parent / "dhcpless"
CONFLICT = f"resync host demo/h1: patch BareMetalHost demo/h1: 422 Invalid {EXPECTED_CONFLICT}"
LOG = logging.getLogger("demo-test")


def _conflict() -> None:
    LOG.warning(CONFLICT)


def _retry() -> None:
    LOG.warning("will retry (503): get x: 503")


def _with_traceback() -> None:
    try:
        raise RuntimeError("IPAM controller is failing\nsecond line")
    except RuntimeError:
        LOG.exception("handling failed")


def _thread_dies() -> None:
    def boom() -> None:
        raise ValueError("fault injection")

    thread = threading.Thread(target=boom, name="stand-in")
    thread.start()
    thread.join()


@pytest.mark.parametrize(
    ("emit", "conflicts", "expected"),
    [
        pytest.param(_conflict, 1, [], id="conflict-counted-not-shown"),
        pytest.param(_retry, 0, ["warning: demo-test: will retry (503): get x: 503"], id="retry"),
        pytest.param(
            _with_traceback,
            0,
            ["error: demo-test: handling failed (RuntimeError: IPAM controller is failing)"],
            id="traceback-reduced",
        ),
        pytest.param(
            _thread_dies, 0, ["error: stand-in: ValueError: fault injection"], id="thread-died"
        ),
    ],
)
def test_the_demo_log_is_one_line_per_problem(
    capsys: pytest.CaptureFixture[str],
    emit: Callable[[], None],
    conflicts: int,
    expected: list[str],
) -> None:
    with demo_logs() as handler:
        emit()
        counted = handler.conflicts
    err = capsys.readouterr().err
    total = [f"{conflicts} expected conflicts (an object changed since it was read) were retried"]
    assert counted == conflicts
    assert "Traceback" not in err
    assert err.splitlines() == expected + (total if conflicts else [])


def test_summary_in_words_is_not_json() -> None:
    summary = {"stranded": 0, "injected": {"api_5xx": 3}, "stranded_hosts": [], "seed": 7}
    out = io.StringIO()
    print_summary(summary, out)
    lines = out.getvalue().splitlines()
    assert [line.split()[0] for line in lines] == ["injected", "seed", "stranded", "stranded"]
    assert "api_5xx 3" in lines[0] and lines[-1].endswith("none")
    with pytest.raises(json.JSONDecodeError):
        json.loads(out.getvalue())


@pytest.mark.slow
def test_chaos_without_json_prints_no_traceback_and_no_json() -> None:
    done = subprocess.run(
        [str(DHCPLESS), "demo", "--chaos", "--hosts", "6"],
        capture_output=True,
        text=True,
        timeout=seconds(240),
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Traceback" not in done.stderr + done.stdout
    assert not any(line.lstrip().startswith(("{", "}", '"')) for line in done.stdout.splitlines())
    assert any(line.startswith("stranded ") for line in done.stdout.splitlines()), done.stdout
