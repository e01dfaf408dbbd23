"""A Broker's Triggers and the counts tests read (`BrokerStats`), apart from its delivery loop."""

from __future__ import annotations

from dataclasses import dataclass, field

from dhcpless_sandbox.eventing.delivery import Delivery, Subscriber
from dhcpless_sandbox.eventing.filters import Filter


@dataclass(frozen=True)
class Trigger:
    """One Trigger: which events (`filter`) go to whom (`subscriber`), and how (`delivery`)."""

    name: str
    subscriber: Subscriber
    filter: Filter = field(default=lambda _: True)
    delivery: Delivery = field(default_factory=Delivery)


@dataclass
class BrokerStats:
    """What tests read to see retries, dead letters, drops and replies actually happen."""

    accepted: int = 0
    deliveries: int = 0
    retries: int = 0
    dead_lettered: int = 0
    dropped: int = 0
    replies: int = 0
