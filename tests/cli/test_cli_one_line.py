"""Every mistake a user can make on the command line is one line and exit 2 (usage) or 1
(failure), never a traceback; and `dhcpless bench` says what each of its figures means."""

from __future__ import annotations

import math
import subprocess
import sys
from typing import Any

import pytest

from dhcpless.tools import cli
from tests.support.waits import seconds

BAD_VALUES: list[Any] = [
    pytest.param(["sandbox", "--port", "70000"], "must be 0 to 65535", id="sandbox-port-high"),
    pytest.param(["sandbox", "--port", "-1"], "must be 0 to 65535", id="sandbox-port-negative"),
    pytest.param(["serve", "resync", "--port", "65536"], "must be 0 to 65535", id="serve-port"),
    pytest.param(["serve", "resync", "--port", "http"], "not a whole number", id="port-word"),
    pytest.param(["demo", "--hosts", "ten"], "not a whole number: 'ten'", id="hosts-word"),
    pytest.param(["demo", "--hosts", "0"], "must be at least 1", id="hosts-zero"),
    pytest.param(["demo", "--seed", "x"], "not a whole number", id="seed-word"),
    pytest.param(["bench", "--pools", "0"], "must be at least 1", id="bench-pools"),
    pytest.param(["status", "-o", "yaml"], "invalid choice: 'yaml'", id="status-output"),
]


@pytest.mark.parametrize(("argv", "message"), BAD_VALUES)
def test_a_bad_flag_value_is_a_usage_error(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        cli.main(argv)
    err = capsys.readouterr().err
    assert stopped.value.code == 2
    assert err.count("\n") == 1 and message in err and "Traceback" not in err, err
    assert err.startswith(f"dhcpless {argv[0]}: error: ") and "--help)" in err


@pytest.mark.parametrize(
    "target",
    [
        pytest.param("a/b/c", id="two-slashes"),
        pytest.param("/name", id="no-namespace"),
        pytest.param("ns/", id="no-name"),
    ],
)
def test_a_bad_host_reference_is_a_usage_error(
    target: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from dhcpless.tools.status import single

    monkeypatch.setattr(single, "caller_client", lambda *a: object())  # no cluster needed
    assert cli.main(["status", target]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is not NAMESPACE/NAME" in err, err


@pytest.mark.slow
@pytest.mark.parametrize("module", ["google", "cel_expr_python", "glean"])
def test_without_the_sandbox_extra_the_demo_names_it(module: str) -> None:
    """As after `pip install metal3-dhcpless` without `[sandbox]`: one of its modules absent."""
    program = (
        f"import sys; sys.modules[{module!r}] = None\n"
        "from dhcpless.tools.cli import main\n"
        "sys.exit(main(['demo', '--hosts', '1']))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program],
        capture_output=True,
        text=True,
        timeout=seconds(120),
        check=False,
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    assert "metal3-dhcpless[sandbox]" in done.stderr


def test_the_bench_table_explains_every_figure() -> None:
    from dhcpless_sandbox.bench import legend, report

    result: dict[str, Any] = {key: 1.25 for key in report.KEYS}
    result["to_unpause_seconds"] = [0.5, 1.0, math.nan]
    result["cold_start_seconds"] = {"host-registration": 0.61, "ipclaim-fulfilment": 0.58}
    text = report.table(result)
    assert set(legend.EXPLAINED) == set(report.KEYS)  # one explanation per key, no more
    for key, meaning in legend.EXPLAINED.items():
        assert any(line.split()[:1] == [key] and meaning in line for line in text.splitlines())
    headings = [heading for heading, _ in legend.GROUPS]
    assert all(heading in text for heading in headings)
    assert max(len(line) for line in text.splitlines()) <= 100
