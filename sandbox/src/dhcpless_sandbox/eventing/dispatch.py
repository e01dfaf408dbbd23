"""One delivery attempt over real HTTP, as the broker's filter/dispatcher makes it.

Exists apart from the broker's fan-out and retry loop because it is the wire half: encode the
event (binary, or structured for `format: json`), POST it with `Prefer: reply`, read the
answer, decide whether a 2xx body is a reply CloudEvent (a 2xx that is not one counts as 502),
and build the dead-lettered copy with the `knativeerror*` extensions.
"""

from __future__ import annotations

import base64
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import urllib3
from cloudevents.core.base import BaseCloudEvent
from cloudevents.core.bindings.http import (
    HTTPMessage,
    from_http_event,
    to_binary_event,
    to_structured_event,
)
from cloudevents.core.exceptions import BaseCloudEventException

from dhcpless_sandbox.eventing.delivery import Delivery, Outcome, Subscriber, classify
from dhcpless_sandbox.eventing.event_copy import with_attributes

_DEFAULT_TIMEOUT = 60.0
_ERROR_DATA_LIMIT = 1024


@dataclass(frozen=True)
class Answer:
    """A subscriber's HTTP answer; status 0 means a network error or timeout."""

    status: int
    body: bytes
    url: str
    headers: Mapping[str, str] = field(default_factory=dict)


NO_ANSWER = Answer(0, b"", "")

Connections = Callable[[int], urllib3.PoolManager]
"""Builds the dispatcher's pooled HTTP client for `workers` concurrent deliveries."""


def plain_connections(workers: int) -> urllib3.PoolManager:
    """urllib3 as it comes (no retries: the broker retries)."""
    return urllib3.PoolManager(maxsize=workers, retries=False)


class Dispatcher:
    """POSTs events over one pooled HTTP client (no urllib3 retries: the broker retries)."""

    def __init__(
        self, workers: int, namespace: str, connections: Connections = plain_connections
    ) -> None:
        """The world passes `runtime.wiring.one_write_connections`: an event's head and body in
        one write, as Knative's dispatcher writes them (the eventing imports no adapter)."""
        self._http = connections(workers)
        self._namespace = namespace

    def attempt(
        self, subscriber: Subscriber, event: BaseCloudEvent, delivery: Delivery
    ) -> tuple[Outcome, Answer, BaseCloudEvent | None]:
        """Deliver once: the outcome, the answer (a non-event 2xx as 502), and any reply."""
        message = to_structured_event(event) if delivery.structured else to_binary_event(event)
        headers = {**message.headers, "Prefer": "reply", "Kn-Namespace": self._namespace}
        with subscriber.request() as url:
            answer = self.post(url, message.body, headers, delivery.timeout)
        reply = reply_event(answer) if 200 <= answer.status < 300 and answer.body else None
        outcome = classify(answer.status, answer.body, reply is not None)
        if outcome is not Outcome.SUCCESS and 200 <= answer.status < 300:
            answer = Answer(502, answer.body, answer.url)
        return outcome, answer, reply

    def dead_letter(
        self, sink: Subscriber, event: BaseCloudEvent, last: Answer, timeout: float | None
    ) -> Answer:
        """Send the event, marked with why its delivery failed, to the dead-letter sink."""
        message = to_binary_event(errored(event, last))
        with sink.request() as url:
            return self.post(url, message.body, dict(message.headers), timeout)

    def post(self, url: str, body: bytes, headers: dict[str, str], timeout: float | None) -> Answer:
        try:
            answer = self._http.request(
                "POST", url, body=body, headers=headers, timeout=timeout or _DEFAULT_TIMEOUT
            )
        except urllib3.exceptions.HTTPError:
            return Answer(0, b"", url)
        return Answer(answer.status, answer.data, url, dict(answer.headers))


def errored(event: BaseCloudEvent, last: Answer) -> BaseCloudEvent:
    """The dead-lettered copy: where it failed, the last status, and the start of the body."""
    return with_attributes(
        event,
        knativeerrordest=last.url,
        knativeerrorcode=str(last.status),
        knativeerrordata=base64.b64encode(last.body[:_ERROR_DATA_LIMIT]).decode(),
    )


def reply_event(answer: Answer) -> BaseCloudEvent | None:
    """The reply event, if the 2xx body is a CloudEvent (binary or structured)."""
    headers = {k.lower(): v for k, v in answer.headers.items()}
    binary = "ce-specversion" in headers
    structured = headers.get("content-type", "").startswith("application/cloudevents+json")
    if not (binary or structured):
        return None
    try:
        return from_http_event(HTTPMessage(headers=headers, body=answer.body))
    except (BaseCloudEventException, ValueError, AttributeError):
        return None
