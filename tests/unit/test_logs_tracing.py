"""The log line's shape and the trace context's parsing, without a server.

Covers: `traceparent` values are read as W3C Trace Context version 00 says (invalid ones,
all-zero ids and other versions ignored, never refused); `stamp` adds the annotation only with
a trace; `follow` continues an object's trace; the formatter's fixed fields, the function from
`K_SERVICE` before `FUNCTION`, the exception's type but never its text; `DHCPLESS_LOG_LEVEL`
accepts the four levels and stops the container on anything else.
"""

from __future__ import annotations

import json
import logging
import sys

import pytest

from dhcpless import keys, tracing
from dhcpless.serving import logs

GOOD = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"


@pytest.mark.parametrize(
    ("value", "trace"),
    [
        pytest.param(GOOD, "0af7651916cd43dd8448eb211c80319c", id="valid"),
        pytest.param(GOOD.upper(), "0af7651916cd43dd8448eb211c80319c", id="upper-case"),
        pytest.param(" " + GOOD + " ", "0af7651916cd43dd8448eb211c80319c", id="padded"),
        pytest.param("00-" + "0" * 32 + "-b7ad6b7169203331-01", None, id="zero-trace"),
        pytest.param(
            "00-0af7651916cd43dd8448eb211c80319c-" + "0" * 16 + "-01", None, id="zero-span"
        ),
        pytest.param("01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", None, id="version"),
        pytest.param("00-0af7651916cd43dd-b7ad6b7169203331-01", None, id="short"),
        pytest.param("", None, id="empty"),
        pytest.param(None, None, id="absent"),
        pytest.param(7, None, id="not-a-string"),
    ],
)
def test_traceparent_parse(value: object, trace: str | None) -> None:
    parsed = tracing.parse(value)
    assert (parsed.trace_id if parsed else None) == trace


def test_stamp_only_with_a_trace() -> None:
    body: dict[str, object] = {"metadata": {"name": "x", "annotations": {"a": "b"}}}
    tracing.stamp(body)
    assert body == {"metadata": {"name": "x", "annotations": {"a": "b"}}}
    token = tracing.CURRENT.set(tracing.parse(GOOD))
    try:
        tracing.stamp(body)
    finally:
        tracing.CURRENT.reset(token)
    assert body["metadata"] == {
        "name": "x",
        "annotations": {"a": "b", keys.TRACEPARENT_ANNOTATION: GOOD},
    }


def test_follow_continues_an_objects_trace_and_ignores_others() -> None:
    token = tracing.CURRENT.set(None)
    try:
        tracing.follow({keys.TRACEPARENT_ANNOTATION: "garbage"})
        assert tracing.CURRENT.get() is None
        tracing.follow({keys.TRACEPARENT_ANNOTATION: GOOD})
        assert tracing.CURRENT.get() == tracing.parse(GOOD)
    finally:
        tracing.CURRENT.reset(token)


def _record(exc: bool = False) -> logging.LogRecord:
    info = None
    if exc:
        try:
            raise ValueError("secret-bytes-QZ99")
        except ValueError:
            info = sys.exc_info()
    return logging.LogRecord("x.y", logging.WARNING, __file__, 1, "host %s", ("a/b",), info)


def test_line_has_the_fixed_fields_and_k_service_names_the_function(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("FUNCTION", "resync")
    monkeypatch.setenv("K_SERVICE", "host-registration")
    line = json.loads(logs.JsonFormatter().format(_record()))
    assert line["function"] == "host-registration"
    assert (line["level"], line["logger"], line["message"]) == ("WARNING", "x.y", "host a/b")
    assert line["time"].endswith("+00:00")
    assert "event" not in line and "trace_id" not in line and "host" not in line


def test_an_exception_is_named_never_quoted() -> None:
    text = logs.JsonFormatter().format(_record(exc=True))
    assert json.loads(text)["error"] == "ValueError"
    assert "QZ99" not in text


@pytest.mark.parametrize(
    ("value", "level"),
    [
        pytest.param(None, "INFO", id="default"),
        pytest.param("debug", "DEBUG", id="lower-case"),
        pytest.param(" WARNING ", "WARNING", id="padded"),
        pytest.param("ERROR", "ERROR", id="error"),
    ],
)
def test_level_from_the_environment(value: str | None, level: str) -> None:
    env = {} if value is None else {logs.LEVEL_ENV: value}
    assert logs.level(env) == level
    assert logs.dict_config(env)["root"]["level"] == level


def test_an_unknown_level_stops_the_container() -> None:
    with pytest.raises(SystemExit, match="DHCPLESS_LOG_LEVEL='LOUD' is not one of"):
        logs.level({logs.LEVEL_ENV: "loud"})
