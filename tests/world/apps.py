"""Tiny WSGI functions for broker tests: each answers from a script and records what it got."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field

from cloudevents.core.base import BaseCloudEvent
from cloudevents.core.bindings.http import HTTPMessage, from_http_event, to_binary_event
from cloudevents.core.v1.event import CloudEvent
from flask import Flask, Response, request

from dhcpless_sandbox.runtime.runner import FunctionService


@dataclass(frozen=True)
class Answer:
    """One scripted answer; `reply_type` makes it a 200 with a CloudEvent reply."""

    status: int = 204
    body: str = ""
    reply_type: str | None = None


@dataclass
class Scripted:
    """Answers requests in order from `script` (the last answer repeats)."""

    script: list[Answer]
    received: list[BaseCloudEvent] = field(default_factory=list)
    services: list[FunctionService] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def app(self) -> Flask:
        app = Flask("scripted")

        @app.post("/")
        def receive() -> Response:
            message = HTTPMessage(headers=dict(request.headers), body=request.get_data())
            with self.lock:
                self.received.append(from_http_event(message))
                answer = self.script[min(len(self.received), len(self.script)) - 1]
            return respond(answer)

        return app

    def service(self, name: str = "fn", idle: float = 60.0) -> FunctionService:
        service = FunctionService(name, self.app, idle)
        self.services.append(service)
        return service

    def stop(self) -> None:
        for service in self.services:
            service.stop()


def respond(answer: Answer) -> Response:
    if answer.reply_type is None:
        return Response(answer.body, status=answer.status)
    reply = CloudEvent(
        attributes={
            "type": answer.reply_type,
            "source": "test",
            "datacontenttype": "application/json",
        },
        data={"reply": True},
    )
    message = to_binary_event(reply)
    return Response(message.body, status=200, headers=message.headers)
