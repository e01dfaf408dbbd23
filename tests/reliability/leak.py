"""Capture every channel a Secret's content could escape by, and search them for it.

Channels: log records (root logger, every level the functions use), every CloudEvent the broker
accepted (sources and replies), every HTTP answer a function gave, the sandbox's core/v1 Events
and the dead-letter sink. Needles: each of our Secrets' network data as stored (base64), decoded,
and re-serialised compactly (a log line might `json.dumps` the document).
"""

from __future__ import annotations

import base64
import json
import logging
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from cloudevents.core.base import BaseCloudEvent
from kubernetes import client as k8s

from dhcpless import keys
from dhcpless_sandbox.runtime.world import World

WSGI = Callable[..., Any]


@dataclass
class Captured:
    """Everything seen on the channels, as text."""

    logs: list[str] = field(default_factory=list)
    events: list[str] = field(default_factory=list)
    answers: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, channel: list[str], text: str) -> None:
        with self.lock:
            channel.append(text)


class _Handler(logging.Handler):
    def __init__(self, captured: Captured) -> None:
        super().__init__(logging.DEBUG)
        self.captured = captured

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage() + (self.format(record) if record.exc_info else "")
        self.captured.add(self.captured.logs, text)


@contextmanager
def capture_logs(captured: Captured) -> Iterator[None]:
    """A handler on the root logger; our own loggers at DEBUG so nothing is filtered out."""
    handler, root = _Handler(captured), logging.getLogger()
    levels = {name: logging.getLogger(name).level for name in ("dhcpless", "functions", "")}
    root.addHandler(handler)
    for name in levels:
        logging.getLogger(name).setLevel(logging.DEBUG if name else logging.INFO)
    try:
        yield
    finally:
        root.removeHandler(handler)
        for name, level in levels.items():
            logging.getLogger(name).setLevel(level)


def tap_broker(world: World, captured: Captured) -> None:
    """Record every event the broker accepts (call before `start`: the sources bind it then)."""
    publish = world.broker.publish

    def recording(event: BaseCloudEvent, ttl: int | None = None) -> int:
        captured.add(captured.events, _event_text(event))
        return publish(event, ttl)

    world.broker.publish = recording  # type: ignore[method-assign]


def tap_answers(world: World, captured: Captured) -> None:
    """Record every function's HTTP answers (call after `start`, before the first event)."""
    for service in world.services.values():
        service.wrap_app(lambda factory: _answers(factory, captured))


def _event_text(event: BaseCloudEvent) -> str:
    attributes = json.dumps(event.get_attributes(), default=str)
    return attributes + json.dumps(event.get_data(), default=str)


def _answers(factory: Callable[[], WSGI], captured: Captured) -> Callable[[], WSGI]:
    def build() -> WSGI:
        app = factory()

        def middleware(environ: dict[str, Any], start_response: Any) -> Iterable[bytes]:
            body = b"".join(app(environ, start_response))
            captured.add(captured.answers, body.decode(errors="replace"))
            return [body]

        return middleware

    return build


def needles(api: k8s.ApiClient, namespace: str) -> list[str]:
    """Our Secrets' network data in every form it could leak in."""
    selector = f"{keys.MANAGED_BY_LABEL}={keys.MANAGED_BY_VALUE}"
    found: list[str] = []
    for secret in (
        k8s.CoreV1Api(api).list_namespaced_secret(namespace, label_selector=selector).items
    ):
        encoded = str((secret.data or {}).get(keys.NETWORK_DATA_KEY, ""))
        text = base64.b64decode(encoded).decode()
        compact = json.dumps(json.loads(text), separators=(",", ":"), sort_keys=True)
        found += [encoded, text, compact, base64.b64encode(compact.encode()).decode()]
    return found


def kube_events(api: k8s.ApiClient, namespace: str) -> list[str]:
    items = k8s.CoreV1Api(api).list_namespaced_event(namespace).items
    return [f"{e.reason} {e.message} {e.note if hasattr(e, 'note') else ''}" for e in items]


def leaks(haystacks: dict[str, list[str]], found: list[str]) -> list[str]:
    """`channel: needle…` for every needle found in any channel's text."""
    return [
        f"{channel}: {needle[:40]}"
        for channel, texts in haystacks.items()
        for needle in found
        if any(needle in text for text in texts)
    ]
