"""The functions' logs as an operator reads them: one JSON object per line, one line a decision.

The image's entry point (`deploy/gunicorn_conf.py`) installs `dict_config()` as gunicorn's
`logconfig_dict`, so gunicorn's own lines and the functions' go through `JsonFormatter`, at the
level `DHCPLESS_LOG_LEVEL` names (default INFO: every decision is visible). Each line has the
time (RFC 3339, UTC), the level, the logger, the function (`K_SERVICE`, which Serving sets,
else `FUNCTION`) and the message; a line written while a delivery is handled adds the event's
`id`, `type`, `subject` and object, the host concerned (`tracing.bind_host`, by the chain)
and the trace id of the `traceparent` that came with it (`dhcpless.tracing`); the line
that closes a delivery (`serving.delivery`) adds its outcome, HTTP status and duration. Only
these fields and the message are printed, never an exception's text (it may quote a Secret,
`web._frames`), so no Secret byte reaches a log line.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Mapping
from contextvars import ContextVar
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from dhcpless import tracing

LEVEL_ENV = "DHCPLESS_LOG_LEVEL"
LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
FIELDS_KEY = "dhcpless"
"""`extra={FIELDS_KEY: {...}}` on a log call adds those fields to its line (`web`'s summary)."""


@dataclass(frozen=True)
class Delivery:
    """What a log line says about the delivery being handled."""

    id: str
    type: str
    subject: str | None = None
    object: str | None = None


DELIVERY: ContextVar[Delivery | None] = ContextVar("dhcpless_delivery", default=None)


def function_name(env: Mapping[str, str] = os.environ) -> str:
    """The Knative Service's name (Serving's `K_SERVICE`), else the image's `FUNCTION`."""
    return env.get("K_SERVICE") or env.get("FUNCTION", "")


class JsonFormatter(logging.Formatter):
    """One JSON object per record: fixed fields, the delivery's, the record's own extras."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__()
        self.function = function_name()

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "function": self.function,
            "message": record.getMessage(),
        }
        if (delivery := DELIVERY.get()) is not None:
            line["event"] = {k: v for k, v in vars(delivery).items() if v}
        line["host"] = tracing.HOST.get()
        if (trace := tracing.CURRENT.get()) is not None:
            line["trace_id"], line["span_id"] = trace.trace_id, trace.span_id
        line.update(getattr(record, FIELDS_KEY, None) or {})
        if record.exc_info and record.exc_info[0] is not None:
            line["error"] = record.exc_info[0].__name__  # the type only: its text may quote data
        return json.dumps({k: v for k, v in line.items() if v is not None}, default=str)


def level(env: Mapping[str, str] = os.environ) -> str:
    """`DHCPLESS_LOG_LEVEL` (default INFO); anything else stops the container at start."""
    value = env.get(LEVEL_ENV, "INFO").strip().upper() or "INFO"
    if value not in LEVELS:
        raise SystemExit(f"{LEVEL_ENV}={value!r} is not one of: {', '.join(LEVELS)}")
    return value


def dict_config(env: Mapping[str, str] = os.environ) -> dict[str, Any]:
    """gunicorn's `logconfig_dict`: every logger to stderr as JSON; no access log (queue-proxy
    counts requests, and the delivery's closing line says more)."""
    chosen = level(env)
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": f"{__name__}.JsonFormatter"}},
        "handlers": {
            "stderr": {"class": "logging.StreamHandler", "formatter": "json", "stream": "ext://sys.stderr"}
        },
        "root": {"level": chosen, "handlers": ["stderr"]},
        "loggers": {
            "gunicorn.error": {"level": chosen, "handlers": [], "propagate": True},
            "gunicorn.access": {"level": "CRITICAL", "handlers": [], "propagate": False},
        },
    }  # fmt: skip
