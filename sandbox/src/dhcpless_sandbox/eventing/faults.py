"""Seeded fault injection for the event source: drop, duplicate and reorder events.

Exists so the chain's idempotence and resync can be tested against the failures a real
ApiServerSource adapter has (lost events on restarts or send failures, at-least-once delivery,
no ordering guarantee) reproducibly: the same seed gives the same faults.
"""

from __future__ import annotations

import random
import uuid
from dataclasses import dataclass

from cloudevents.core.v1.event import CloudEvent

from dhcpless_sandbox.eventing.event_copy import with_attributes


@dataclass(frozen=True)
class Faults:
    """Seeded fault injection: drop, duplicate (a new id) and reorder (hold one event back)."""

    drop: float = 0.0
    duplicate: float = 0.0
    reorder: float = 0.0
    seed: int = 0


class FaultInjector:
    """Turns each event into the batch to send; not thread-safe (the caller holds a lock)."""

    def __init__(self, faults: Faults) -> None:
        self.faults = faults
        self._random = random.Random(faults.seed)
        self._held: CloudEvent | None = None
        self.dropped = 0
        self.duplicated = 0
        self.reordered = 0

    def forget_held(self) -> None:
        """Lose a held-back (reordered) event, as a crash of the adapter does."""
        self._held = None

    def apply(self, event: CloudEvent) -> list[CloudEvent]:
        """The events to send now, in order; empty when `event` is dropped or held back."""
        faults, roll = self.faults, self._random.random
        if faults.drop and roll() < faults.drop:
            self.dropped += 1
            return []
        batch = [event]
        if faults.duplicate and roll() < faults.duplicate:
            batch.append(with_attributes(event, id=str(uuid.uuid4())))
            self.duplicated += 1
        if faults.reorder and self._held is None and roll() < faults.reorder:
            self._held = batch.pop(0)
            self.reordered += 1
        elif self._held is not None:
            batch.append(self._held)
            self._held = None
        return batch
