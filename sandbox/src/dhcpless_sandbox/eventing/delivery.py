"""A Trigger's delivery spec (knative.md §c): retries, backoff, timeout, format, dead letter.

Exists apart from the broker because it is the pure, table-tested half of delivery: parsing the
Knative `delivery` shape (ISO-8601 durations included), the wait before each retry (exponential
waits delay * 2^n; linear's first retry is immediate; policy or delay alone means no wait), and
`classify`, which says whether one subscriber response is success, retried, or final failure.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol

_RETRIED = frozenset({404, 408, 409, 429})


class BrokerMode(StrEnum):
    """How ingress answers: after every Trigger delivery (the default install) or at once.

    The default Broker (MT channel-based, InMemoryChannel) is synchronous end to end:
    broker-ingress answers with the channel's status (knative/eventing
    `pkg/broker/ingress/ingress_handler.go`, `Handler.receive`), and the channel's fan-out waits
    for every subscription's delivery, retries and dead letter included, answering 202 only when
    all succeeded (`pkg/channel/fanout/fanout_event_handler.go`, `dispatch`;
    `pkg/channel/event_receiver.go`, `ServeHTTP`). The fan-out is asynchronous only when the
    InMemoryChannel's `asyncHandler` is set (`createEventReceiverFunction`).
    """

    SYNC = "sync"
    ASYNC = "async"


class BackoffPolicy(StrEnum):
    LINEAR = "linear"
    EXPONENTIAL = "exponential"


class Outcome(StrEnum):
    """What one delivery attempt means for the retry loop (`retries.go` SelectiveRetry)."""

    SUCCESS = "success"
    RETRY = "retry"
    FAIL = "fail"


class Subscriber(Protocol):
    """An addressable: yields the URL for one request (a scale-to-zero service may start)."""

    def request(self) -> AbstractContextManager[str]: ...


@dataclass(frozen=True)
class UrlSubscriber:
    """A plain `uri` destination."""

    url: str

    def request(self) -> AbstractContextManager[str]:
        return nullcontext(self.url)


_DURATION = re.compile(
    r"^P(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?"
    r"(?:(\d+(?:\.\d+)?)S)?)?$"
)


def parse_duration(text: str) -> float:
    """ISO-8601 duration (`PT0.2S`, `PT1M`, `P1DT2H`) in seconds; ValueError otherwise."""
    match = _DURATION.match(text)
    if not match or text in ("P", "PT") or text.endswith("T"):
        raise ValueError(f"not an ISO-8601 duration: {text!r}")
    days, hours, minutes, seconds = (float(g) if g else 0.0 for g in match.groups())
    return ((days * 24 + hours) * 60 + minutes) * 60 + seconds


@dataclass(frozen=True)
class Delivery:
    """A Trigger's (or Broker's) `delivery`; a Trigger's replaces the Broker's wholesale."""

    retry: int = 0
    backoff_policy: BackoffPolicy | None = None
    backoff_delay: float | None = None
    timeout: float | None = None
    structured: bool = False
    dead_letter: Subscriber | None = None

    @classmethod
    def from_spec(cls, spec: Mapping[str, Any], dead_letter: Subscriber | None = None) -> Delivery:
        """Parse the Knative shape; the dead-letter destination is resolved by the caller."""
        delay, timeout = spec.get("backoffDelay"), spec.get("timeout")
        policy = spec.get("backoffPolicy")
        return cls(
            retry=int(spec.get("retry", 0)),
            backoff_policy=BackoffPolicy(policy) if policy else None,
            backoff_delay=parse_duration(delay) if delay else None,
            timeout=parse_duration(timeout) if timeout else None,
            structured=spec.get("format") == "json",
            dead_letter=dead_letter,
        )

    def delay(self, retry_index: int) -> float:
        """Wait before retry number `retry_index` (0 = the first retry)."""
        if self.backoff_policy is None or self.backoff_delay is None:
            return 0.0  # either one alone means no wait at all
        if self.backoff_policy is BackoffPolicy.EXPONENTIAL:
            return self.backoff_delay * 2.0**retry_index
        return self.backoff_delay * retry_index


def classify(status: int, body: bytes, is_event: bool) -> Outcome:
    """Map one subscriber response (status 0 = network error or timeout) to an outcome."""
    if 200 <= status < 300:
        return Outcome.SUCCESS if is_event or not body else Outcome.RETRY  # non-event: 502
    if status == 0 or status >= 500 or status in _RETRIED:
        return Outcome.RETRY
    return Outcome.FAIL
